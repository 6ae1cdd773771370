import { CreateTeamForm } from "./CreateTeamForm";

/** A signed-in person who belongs to no team yet. */
export function NoTeam() {
  return (
    <section className="narrow" aria-labelledby="no-team-heading">
      <h1 id="no-team-heading">Create your team</h1>
      <p>
        You are signed in but not a member of any team yet. Create one to start watching MCP servers: you will be its owner and can invite
        others.
      </p>
      <CreateTeamForm />
      <p className="muted small">
        Joining an existing team instead? Open the invitation link a team admin gave you; it adds you to their team once you accept.
      </p>
    </section>
  );
}
