import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { EnvSchema } from "@/lib/env";
import { createLogger, type LogFormat } from "@/lib/logger";
import { loggablePath, requestIdFrom } from "@/lib/request-log";

function capture(format: LogFormat = "json", level = "info") {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ name: "worker", format, level, stream });
  return { logger, text: () => chunks.join(""), lines: () => chunks.join("").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("createLogger()", () => {
  it("writes one JSON object a line with level, time, msg, name and the child's bindings", () => {
    const { logger, lines } = capture();
    logger.info("worker w1 watching 3 server(s)");
    logger.child({ serverId: "s-1" }).warn("could not store listing (attempt 1: timeout)");
    const [first, second] = lines();
    expect(first).toMatchObject({ level: 30, name: "worker", msg: "worker w1 watching 3 server(s)" });
    expect(typeof first!.time).toBe("number");
    expect(second).toMatchObject({ level: 40, serverId: "s-1", msg: "could not store listing (attempt 1: timeout)" });
  });

  it("censors headers, authorization, cookies, env, passwords, tokens, secrets, API keys and configs wherever they sit", () => {
    const { logger, lines, text } = capture();
    logger.info(
      {
        headers: { authorization: "Bearer sk-live-1", "x-api-key": "k-2" },
        request: { authorization: "Bearer sk-live-3", cookie: "session=abc4", "set-cookie": "session=abc5" },
        server: { config: { url: "https://mcp.example", headers: { Authorization: "Bearer sk-live-6" } }, env: { GITHUB_TOKEN: "ghp_7" } },
        user: { password: "hunter8", token: "t-9", secret: "s-10", apiKey: "tw_11" },
        serverId: "kept",
      },
      "a call that should not have passed these",
    );
    const [line] = lines();
    expect(line).toMatchObject({
      headers: "[redacted]",
      request: { authorization: "[redacted]", cookie: "[redacted]", "set-cookie": "[redacted]" },
      server: { config: "[redacted]", env: "[redacted]" },
      user: { password: "[redacted]", token: "[redacted]", secret: "[redacted]", apiKey: "[redacted]" },
      serverId: "kept",
    });
    for (const secret of ["sk-live-1", "k-2", "sk-live-3", "abc4", "abc5", "sk-live-6", "ghp_7", "hunter8", "t-9", "s-10", "tw_11"]) expect(text()).not.toContain(secret);
  });

  it("keeps lines below the level out", () => {
    const { logger, text } = capture("json", "warn");
    logger.info("routine");
    logger.warn("trouble");
    expect(text()).not.toContain("routine");
    expect(text()).toContain("trouble");
  });

  it("pretty mode writes text for people, not JSON, with the same redaction", async () => {
    const { logger, text } = capture("pretty");
    logger.child({ serverId: "s-2" }).info({ headers: { authorization: "Bearer sk-live-12" } }, "Toolwatch is ready at http://localhost:3000");
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toMatch(/INFO.*Toolwatch is ready at http:\/\/localhost:3000/);
    expect(text()).toContain('"serverId":"s-2"');
    expect(text()).not.toContain("sk-live-12");
    expect(() => JSON.parse(text())).toThrow();
  });
});

describe("TOOLWATCH_LOG_FORMAT, TOOLWATCH_LOG_LEVEL and TOOLWATCH_SHUTDOWN_GRACE_MS", () => {
  it("default to auto-detection, info and 10 s, and refuse values they do not know", () => {
    const defaults = EnvSchema.parse({});
    expect(defaults.TOOLWATCH_LOG_FORMAT).toBeUndefined();
    expect(defaults).toMatchObject({ TOOLWATCH_LOG_LEVEL: "info", TOOLWATCH_SHUTDOWN_GRACE_MS: 10_000 });
    expect(EnvSchema.parse({ TOOLWATCH_LOG_FORMAT: "json", TOOLWATCH_LOG_LEVEL: "debug", TOOLWATCH_SHUTDOWN_GRACE_MS: "2500" })).toMatchObject({
      TOOLWATCH_LOG_FORMAT: "json",
      TOOLWATCH_LOG_LEVEL: "debug",
      TOOLWATCH_SHUTDOWN_GRACE_MS: 2_500,
    });
    expect(EnvSchema.safeParse({ TOOLWATCH_LOG_FORMAT: "xml" }).success).toBe(false);
    expect(EnvSchema.safeParse({ TOOLWATCH_LOG_LEVEL: "loud" }).success).toBe(false);
    expect(EnvSchema.safeParse({ TOOLWATCH_SHUTDOWN_GRACE_MS: "-1" }).success).toBe(false);
  });
});

describe("request ids and logged paths", () => {
  it("requestIdFrom() keeps a short plain token and replaces anything else", () => {
    expect(requestIdFrom("req-42.a_B")).toBe("req-42.a_B");
    expect(requestIdFrom("x".repeat(64))).toBe("x".repeat(64));
    for (const bad of ["x".repeat(65), "", 'a"b', "a b", "a\nb", "ünï", undefined, ["a", "b"]]) {
      const id = requestIdFrom(bad);
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("loggablePath() drops the query and the tokens of share and invitation links", () => {
    expect(loggablePath("/api/v1/servers/abc?cursor=x&token=y")).toBe("/api/v1/servers/abc");
    expect(loggablePath("/api/v1/share/tok_123")).toBe("/api/v1/share/[redacted]");
    expect(loggablePath("/share/tok_123/servers/9")).toBe("/share/[redacted]/servers/9");
    expect(loggablePath("/invite/inv-1")).toBe("/invite/[redacted]");
    expect(loggablePath(undefined)).toBe("/");
  });
});
