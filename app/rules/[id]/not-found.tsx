import Link from "next/link";
import { AUDIT_RULES } from "@/lib/detection/catalog";

// notFound() from page.tsx: an id that is not a rule of the catalogue.
export default function UnknownRule() {
  // By number: the catalogue lists rules by family, not in id order.
  const ids = AUDIT_RULES.map((r) => r.id).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return (
    <section>
      <h1>No such rule</h1>
      <p>
        The audit rules are {ids[0]} to {ids.at(-1)}. <Link href="/rules">Every rule</Link>, with an example of each.
      </p>
    </section>
  );
}
