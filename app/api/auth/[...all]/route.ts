import { toNextJsHandler } from "better-auth/next-js";
import { getAuth } from "../../../../lib/auth/auth";

// better-auth's own endpoints: sign-up/in/out, session, organization plugin.
export const dynamic = "force-dynamic";

const handler = () => toNextJsHandler(getAuth());
export const GET = (request: Request) => handler().GET(request);
export const POST = (request: Request) => handler().POST(request);
