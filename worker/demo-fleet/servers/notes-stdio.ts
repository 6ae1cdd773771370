/**
 * Demo server "Team Notes": stdio, five tools, never changes.
 *
 * Run: node --import tsx worker/demo-fleet/servers/notes-stdio.ts
 *
 * This is the "boring, stable" member of the demo fleet: its snapshot should stay
 * at version 1 forever, which is what most real servers look like in Toolwatch.
 * Built on the high-level McpServer + zod because that is how most real v2
 * servers are written; `serveStdio` picks the era from the client's opening
 * message (server/discover → 2026-07-28, initialize → 2025-era) so one factory
 * serves both. stdout is reserved for JSON-RPC; logs go to stderr.
 */
import { randomUUID } from "node:crypto";
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

interface Note {
  id: string;
  title: string;
  body: string;
  notebook: string;
  tags: string[];
  visibility: "team" | "private";
  updatedAt: string;
}

const log = (...args: unknown[]) => console.error("[notes-stdio]", ...args);

// Module-level store: serveStdio may build a throw-away instance for the
// server/discover probe, and notes must survive that.
const notes = new Map<string, Note>();
function seed(title: string, body: string, notebook: string, tags: string[]): void {
  const id = `note_${notes.size + 1}`;
  notes.set(id, { id, title, body, notebook, tags, visibility: "team", updatedAt: "2026-09-01T09:00:00Z" });
}
seed("Q3 planning kickoff", "Goals: ship Toolwatch beta, cut p95 snapshot latency in half.", "planning", ["q3", "roadmap"]);
seed("On-call handbook", "Page the secondary after 15 minutes without ack.", "engineering", ["oncall", "runbook"]);
seed("Retro 2026-08-28", "Keep: pairing on migrations. Change: fewer late deploys.", "rituals", ["retro"]);

const json = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }] });
const notFound = (id: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: `No note with id ${id}` }] });

function createNotesServer(): McpServer {
  const server = new McpServer(
    { name: "team-notes", title: "Team Notes", version: "1.8.0" },
    {
      instructions: "Shared team notebook. Search before creating a note to avoid duplicates.",
      cacheHints: { "tools/list": { ttlMs: 3_600_000, cacheScope: "public" } },
    },
  );

  server.registerTool(
    "search_notes",
    {
      title: "Search notes",
      description: "Find notes by keyword across titles and bodies. Returns id, title, notebook and tags of each match, newest first.",
      inputSchema: z.object({
        query: z.string().min(1).describe("Words to look for, e.g. \"on-call escalation\""),
        notebook: z.string().optional().describe("Only search this notebook"),
        limit: z.number().int().min(1).max(50).default(10).describe("Maximum number of results"),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, notebook, limit }) => {
      const q = query.toLowerCase();
      const hits = [...notes.values()]
        .filter((n) => (!notebook || n.notebook === notebook) && `${n.title}\n${n.body}`.toLowerCase().includes(q))
        .slice(0, limit)
        .map(({ id, title, notebook: nb, tags }) => ({ id, title, notebook: nb, tags }));
      return json(hits);
    },
  );

  server.registerTool(
    "get_note",
    {
      title: "Get note",
      description: "Read the full text and metadata of one note.",
      inputSchema: z.object({ note_id: z.string().describe("Note id as returned by search_notes") }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ note_id }) => {
      const note = notes.get(note_id);
      return note ? json(note) : notFound(note_id);
    },
  );

  server.registerTool(
    "create_note",
    {
      title: "Create note",
      description: "Create a note in a notebook. Team notes are visible to everyone in the workspace; private notes only to you.",
      inputSchema: z.object({
        title: z.string().min(1).max(200).describe("Short, descriptive title"),
        body: z.string().describe("Note content in Markdown"),
        notebook: z.enum(["planning", "engineering", "rituals", "inbox"]).describe("Notebook to file the note in"),
        tags: z.array(z.string()).max(10).default([]).describe("Free-form tags"),
        visibility: z.enum(["team", "private"]).default("team").describe("Who can read the note"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const note: Note = { id: `note_${randomUUID().slice(0, 8)}`, ...args, updatedAt: new Date().toISOString() };
      notes.set(note.id, note);
      return json(note);
    },
  );

  server.registerTool(
    "append_to_note",
    {
      title: "Append to note",
      description: "Add text to the end of an existing note without touching what is already there. Use for meeting logs and running lists.",
      inputSchema: z.object({
        note_id: z.string().describe("Note to append to"),
        text: z.string().min(1).describe("Markdown to append; a blank line is inserted before it"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ note_id, text }) => {
      const note = notes.get(note_id);
      if (!note) return notFound(note_id);
      note.body = `${note.body}\n\n${text}`;
      note.updatedAt = new Date().toISOString();
      return json(note);
    },
  );

  server.registerTool(
    "delete_note",
    {
      title: "Delete note",
      description: "Permanently delete a note. This cannot be undone; prefer moving notes to the \"inbox\" notebook if unsure.",
      inputSchema: z.object({
        note_id: z.string().describe("Note to delete"),
        confirm_title: z.string().describe("Exact title of the note, as a guard against deleting the wrong one"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ note_id, confirm_title }) => {
      const note = notes.get(note_id);
      if (!note) return notFound(note_id);
      if (note.title !== confirm_title) return { isError: true, content: [{ type: "text", text: "confirm_title does not match; nothing deleted" }] };
      notes.delete(note_id);
      return json({ deleted: note_id });
    },
  );

  return server;
}

serveStdio(() => createNotesServer(), { onerror: (e) => log("error:", e.message) });
log("ready on stdio");
