import { describe, expect, it } from "vitest";
import { describeConfigText } from "@/lib/import/detect-format";
import { displayTarget } from "@/lib/import/display-target";
import { parseClientConfig } from "@/lib/import/parse-client-config";

// What the import page shows before and during a preview: the detected format of pasted text,
// and each server's target with secret values cut out.

describe("displayTarget()", () => {
  it("shows a plain URL or command line as written", () => {
    expect(displayTarget({ name: "a", transport: "streamable-http", url: "https://mcp.example.com/mcp?region=eu" })).toBe("https://mcp.example.com/mcp?region=eu");
    expect(displayTarget({ name: "b", transport: "stdio", command: "npx", args: ["-y", "@scope/server", "/tmp"] })).toBe("npx -y @scope/server /tmp");
  });

  it("cuts out URL credentials and secret-named query values", () => {
    expect(displayTarget({ name: "a", transport: "sse", url: "https://user:pw@mcp.example.com/sse?api_key=abc123&region=eu&token=t0k" })).toBe(
      "https://REDACTED@mcp.example.com/sse?api_key=REDACTED&region=eu&token=REDACTED",
    );
  });

  it("cuts out secret-named options and env or header values written into the target", () => {
    const target = displayTarget({ name: "b", transport: "stdio", command: "server", args: ["--api-key", "k-123456", "--token=t-654321", "--port", "8080", "--db", "pg://u:hunter22@db/x", "sk-live-999999"], env: { STRIPE: "sk-live-999999" } });
    expect(target).toBe("server --api-key REDACTED --token=REDACTED --port 8080 --db pg://REDACTED@db/x [redacted STRIPE]");
    expect(displayTarget({ name: "c", transport: "streamable-http", url: "https://h.example/mcp/s3cr3t-path-value", headers: { "X-Key": "s3cr3t-path-value" } })).toBe("https://h.example/mcp/[redacted X-Key]");
  });
});

describe("describeConfigText()", () => {
  it("names the format and counts the servers of each kind of file", () => {
    expect(describeConfigText('{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}')).toEqual({ format: "claude-desktop", servers: 2 });
    expect(describeConfigText('// comment\n{"servers": {"a": {"type": "http", "url": "https://x"},},}')).toEqual({ format: "vscode", servers: 1 });
    expect(describeConfigText('{"mcp": {"servers": {}}}')).toEqual({ format: "vscode-settings", servers: 0 });
    expect(describeConfigText('{"toolwatch": "servers", "version": 1, "servers": [{}, {}, {}]}')).toEqual({ format: "toolwatch", servers: 3 });
  });

  it("says why text cannot be read", () => {
    expect(describeConfigText("{ nope")).toEqual({ error: expect.stringContaining("not JSON") });
    expect(describeConfigText('{"other": 1}')).toEqual({ error: expect.stringContaining("mcpServers") });
  });
});

describe("parseClientConfig() with a format given", () => {
  it("reads the file as that format, or says what it lacks", () => {
    const text = '{"mcpServers": {"a": {"url": "https://mcp.example.com/mcp"}}}';
    expect(parseClientConfig(text).format).toBe("cursor");
    expect(parseClientConfig(text, "claude-desktop").format).toBe("claude-desktop");
    expect(() => parseClientConfig(text, "zed")).toThrow(/context_servers/);
  });
});
