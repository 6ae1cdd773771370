import { describe, expect, it } from "vitest";
import { toPayload, type ServerFormState } from "@/app/_components/server-form/payload";

// The add/edit form's sign-in section → the API's `auth` (issue 16). Hand-written expectations.
const base: ServerFormState = {
  name: "crm",
  transport: "streamable-http",
  command: "",
  args: "",
  env: [],
  url: "https://mcp.example.com/mcp",
  headers: [],
  tags: "",
  pollIntervalSeconds: "300",
  enabled: true,
  authMode: "none",
  clientId: "",
  clientSecret: "",
  scope: "",
  authTouched: false,
};
const stored = { url: "https://mcp.example.com/mcp", envKeys: [], headerKeys: [] };

describe("server form: sign-in", () => {
  it("a new server without sign-in sends no auth", () => {
    expect(toPayload(base, null).body).not.toHaveProperty("auth");
  });

  it("browser sign-in without a client id asks for dynamic registration", () => {
    const { body, errors } = toPayload({ ...base, authMode: "authorization_code", scope: " mcp:read ", authTouched: true }, null);
    expect(errors).toEqual({});
    expect(body!.auth).toEqual({ type: "oauth", grant: "authorization_code", scope: "mcp:read" });
  });

  it("client credentials need both the id and the secret", () => {
    expect(toPayload({ ...base, authMode: "client_credentials", clientId: "svc", authTouched: true }, null).errors.auth).toBe("Client credentials need a client ID and a client secret.");
    expect(toPayload({ ...base, authMode: "client_credentials", clientId: "svc", clientSecret: "s3cret", authTouched: true }, null).body!.auth).toEqual({
      type: "oauth",
      grant: "client_credentials",
      clientId: "svc",
      clientSecret: "s3cret",
    });
  });

  it("editing other fields keeps the stored sign-in (no auth sent)", () => {
    const initial = { ...stored, auth: { grant: "client_credentials", hasSecret: true } };
    const { body } = toPayload({ ...base, name: "crm-prod", authMode: "client_credentials", clientId: "svc" }, initial);
    expect(body).not.toHaveProperty("auth");
  });

  it("a changed sign-in needs the stored secret again; choosing none removes it", () => {
    const initial = { ...stored, auth: { grant: "client_credentials", hasSecret: true } };
    expect(toPayload({ ...base, authMode: "client_credentials", clientId: "svc2", authTouched: true }, initial).errors.auth).toBe(
      "Enter the client ID and the client secret again: a changed sign-in is saved as a whole.",
    );
    expect(toPayload({ ...base, authMode: "none", authTouched: true }, initial).body!.auth).toBeNull();
  });

  it("a secret without its client id is refused; stdio servers never send auth", () => {
    expect(toPayload({ ...base, authMode: "authorization_code", clientSecret: "x", authTouched: true }, null).errors.auth).toBe("A client secret needs the client ID it belongs to.");
    expect(toPayload({ ...base, transport: "stdio", command: "npx", authMode: "authorization_code", authTouched: true }, null).body).not.toHaveProperty("auth");
  });
});
