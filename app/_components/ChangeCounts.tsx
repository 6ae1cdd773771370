/** "+2 −1 ~3 ↪1": tools added, removed, changed (renames included) and renamed. */
export function ChangeCounts({ added, removed, changed, renamed }: { added: number; removed: number; changed: number; renamed: number }) {
  const label = `${added} added, ${removed} removed, ${changed} changed${renamed ? `, ${renamed} renamed` : ""}`;
  return (
    <span className="changes" aria-label={label} title={label} data-testid="change-counts">
      <span className={added ? "added" : "zero"}>+{added}</span> <span className={removed ? "removed" : "zero"}>−{removed}</span>{" "}
      <span className={changed ? "changed" : "zero"}>~{changed}</span>
      {renamed ? <span className="renamed"> ↪{renamed}</span> : null}
    </span>
  );
}
