import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { exportDocument } from "@/lib/import/toolwatch-format";
import { visible } from "./render-snapshot";
import { apiTarget, describeRequestError, outboundFetch, ToolwatchApi } from "./toolwatch-api";

const HELP = `usage: toolwatch export [-o FILE] --api-url <url> --api-key <key>
   (or TOOLWATCH_API_URL / TOOLWATCH_API_KEY)

Writes the servers of the API key's team in Toolwatch's import format (to FILE, or standard
output). The API never returns secret values: env variables and headers are written by NAME with
\${env:NAME} references as values, to be filled in where the file is used. See docs/import.md.`;

export type ExportIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv };

export async function runExportCommand(argv: string[], io: ExportIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { "api-url": { type: "string" }, "api-key": { type: "string" }, output: { type: "string", short: "o" }, help: { type: "boolean", short: "h", default: false } },
      strict: true,
    }));
  } catch (error) {
    return io.stderr.write(`toolwatch export: ${(error as Error).message}\n\n${HELP}\n`), 2;
  }
  if (values.help) return io.stdout.write(`${HELP}\n`), 0;
  const target = apiTarget(values, io.env);
  if (typeof target === "string") return io.stderr.write(`toolwatch export: ${target}\n\n${HELP}\n`), 2;
  const fetch = outboundFetch();
  try {
    const servers = await new ToolwatchApi(target, fetch).listServers();
    const text = `${JSON.stringify(exportDocument(servers, new Date()), null, 2)}\n`;
    if (values.output) {
      await writeFile(values.output, text);
      io.stderr.write(`wrote ${servers.filter((s) => !s.demo).length} servers to ${values.output}\n`);
    } else io.stdout.write(text);
    return 0;
  } catch (error) {
    io.stderr.write(`toolwatch export: ${visible(describeRequestError(error))}\n`);
    return 1;
  } finally {
    await fetch.close();
  }
}
