// Toolwatch's own lint rules (wired in eslint.config.js; tested in tests/static/lint-and-types.test.ts).
//
// verb-writes-audited: an exported function in lib/ that writes to the database calls
// requirePermission (who may) and recordAudit (who did) — the verb shape of lib/CONVENTIONS.md.
// A write is a Prisma model write (`tx.server.create(…)`, `ctx.db.alert.updateMany(…)`, …) or
// `$executeRaw`/`$executeRawUnsafe` on a client-looking receiver (tx, db, prisma, client, ctx.db,
// ctx.tx, anything named …Tx/…Db). It looks at the function's own body, nested callbacks
// included; a write inside a private helper is the helper's caller's business. Writers that act
// for no one (the worker's sink, leases, rate counters, sign-up plumbing) say so, with a reason,
// in a comment right above the export:
//
//   // internal-writer: the worker's snapshot sink; no actor, nothing to audit
//   export async function recordSnapshot(…) { … }

const MODEL_WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
const RAW_WRITES = new Set(["$executeRaw", "$executeRawUnsafe"]);
const CLIENT_NAME = /^(tx|db|prisma|client)$|[a-z](Tx|Db)$/;
const ALLOW = /\binternal-writer\b/;
const ALLOW_WITH_REASON = /\binternal-writer\s*[:—–-]\s*\S/;

const propName = (member) => (member.type === "MemberExpression" && !member.computed && member.property.type === "Identifier" ? member.property.name : undefined);

/** tx, db, ctx.db, this.db, deps.tx, (tx ?? ctx.db), readerOf(ctx, tx) */
function isClient(node) {
  if (!node) return false;
  if (node.type === "Identifier") return CLIENT_NAME.test(node.name);
  if (node.type === "MemberExpression") return CLIENT_NAME.test(propName(node) ?? "");
  if (node.type === "LogicalExpression") return isClient(node.left) || isClient(node.right);
  if (node.type === "CallExpression") return node.callee.type === "Identifier" && node.callee.name === "readerOf";
  if (node.type === "TSNonNullExpression" || node.type === "ChainExpression") return isClient(node.expression);
  return false;
}

/** "tx.mcpServer.create" when `node` is a database write, else undefined. */
function writeOf(node) {
  const callee = node.type === "CallExpression" ? node.callee : node.type === "TaggedTemplateExpression" ? node.tag : undefined;
  if (!callee || callee.type !== "MemberExpression") return undefined;
  const method = propName(callee);
  if (!method) return undefined;
  if (RAW_WRITES.has(method) && isClient(callee.object)) return method;
  if (node.type === "CallExpression" && MODEL_WRITES.has(method) && callee.object.type === "MemberExpression" && isClient(callee.object.object)) {
    return `${propName(callee.object) ?? "model"}.${method}`;
  }
  return undefined;
}

const calledName = (node) => (node.callee.type === "Identifier" ? node.callee.name : propName(node.callee));

function scan(root) {
  const found = { writes: [], calls: new Set() };
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    const write = writeOf(node);
    if (write) found.writes.push({ node, write });
    if (node.type === "CallExpression") {
      const name = calledName(node);
      if (name) found.calls.add(name);
    }
    for (const key of Object.keys(node)) {
      if (key === "parent") continue;
      const value = node[key];
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) if (child && typeof child.type === "string") stack.push(child);
    }
  }
  return found;
}

/** [name, function node] of each function this export statement exports. */
function exportedFunctions(statement) {
  const decl = statement.declaration;
  if (!decl) return [];
  if (decl.type === "FunctionDeclaration") return [[decl.id?.name ?? "default", decl]];
  if (decl.type === "VariableDeclaration") {
    return decl.declarations
      .filter((d) => d.id.type === "Identifier" && d.init && (d.init.type === "ArrowFunctionExpression" || d.init.type === "FunctionExpression"))
      .map((d) => [d.id.name, d.init]);
  }
  return [];
}

const verbWritesAudited = {
  meta: {
    type: "problem",
    docs: { description: "An exported lib verb that writes calls requirePermission and recordAudit (lib/CONVENTIONS.md)" },
    schema: [],
    messages: {
      missing:
        "Exported lib verb `{{name}}` writes ({{write}}) but never calls {{missing}}. Verbs authorize first and audit inside their transaction (lib/CONVENTIONS.md); a writer that acts for no one says `// internal-writer: <why>` above the export.",
      noReason: "`internal-writer` needs a reason: `// internal-writer: <why this write acts for no one>`.",
    },
  },
  create(context) {
    const source = context.sourceCode;
    const check = (statement) => {
      for (const [name, fn] of exportedFunctions(statement)) {
        const { writes, calls } = scan(fn.body);
        if (writes.length === 0) continue;
        const allow = source.getCommentsBefore(statement).find((c) => ALLOW.test(c.value));
        if (allow) {
          if (!ALLOW_WITH_REASON.test(allow.value)) context.report({ node: allow, messageId: "noReason" });
          continue;
        }
        const missing = ["requirePermission", "recordAudit"].filter((f) => !calls.has(f));
        if (missing.length) context.report({ node: statement, messageId: "missing", data: { name, write: writes[0].write, missing: missing.join(" and ") } });
      }
    };
    return { ExportNamedDeclaration: check, ExportDefaultDeclaration: check };
  },
};

export default { meta: { name: "toolwatch" }, rules: { "verb-writes-audited": verbWritesAudited } };
