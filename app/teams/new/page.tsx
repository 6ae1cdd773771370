import { CreateTeamForm } from "@/app/_components/CreateTeamForm";

export default function Page() {
  return (
    <section className="narrow" aria-labelledby="new-team-heading">
      <h1 id="new-team-heading">New team</h1>
      <p className="muted">A team has its own servers, history, members and API keys. You will be its owner.</p>
      <CreateTeamForm />
    </section>
  );
}
