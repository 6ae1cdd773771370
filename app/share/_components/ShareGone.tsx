/** Unknown, expired, revoked or deleted links all look the same, as the API's 404 does. */
export function ShareGone() {
  return (
    <section className="share-gone" data-testid="share-gone" aria-labelledby="share-gone-heading">
      <h1 id="share-gone-heading">Share link unavailable</h1>
      <p role="alert">This share link does not exist, has expired or was revoked.</p>
      <p className="muted">Ask the person who sent it for a new link.</p>
    </section>
  );
}
