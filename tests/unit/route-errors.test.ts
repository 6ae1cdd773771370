import { describe, expect, it } from "vitest";
import { route } from "@/app/_lib/http";
import { AppError } from "@/lib/errors";

// app/_lib/http.ts route(): the error envelope of /api/v1 and the request id of a 500.
describe("route()", () => {
  const request = (id?: string) => new Request("http://toolwatch.test/api/v1/servers", { headers: id ? { "x-request-id": id } : {} });

  it("answers an unexpected error with a 500 that reveals nothing but the request id", async () => {
    const handler = route(async (_request: Request) => {
      throw new Error("connect ECONNREFUSED postgresql://toolwatch:hunter2@db:5432");
    });
    const res = await handler(request("req-77.a"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "INTERNAL", message: "Internal error", requestId: "req-77.a" } });
  });

  it("leaves the envelope of a domain error as it was", async () => {
    const handler = route(async (_request: Request) => {
      throw new AppError("NOT_FOUND", "Server not found");
    });
    const res = await handler(request("req-78"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "NOT_FOUND", message: "Server not found" } });
  });
});
