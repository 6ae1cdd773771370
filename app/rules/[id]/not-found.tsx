import Link from "next/link";

// notFound() from page.tsx: an id that is not a rule of the catalog.
export default function UnknownRule() {
  return (
    <section>
      <h1>No such rule</h1>
      <p>
        Audit rules are R1 to R35. <Link href="/rules">Every rule</Link>, with an example of each.
      </p>
    </section>
  );
}
