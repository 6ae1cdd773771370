/**
 * Tool definitions of the demo "Acme product catalog" server (catalog-http.ts),
 * kept as raw MCP `Tool` JSON because that server answers `tools/list` itself
 * (to paginate) and never goes through McpServer's zod → JSON Schema conversion.
 * 24 tools = three pages of 10/10/4, so a first-time user sees a paginated server.
 */
import type { Tool } from "@modelcontextprotocol/server";

type Props = Record<string, Record<string, unknown>>;

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: "string", description, ...extra });
const int = (description: string, extra: Record<string, unknown> = {}) => ({ type: "integer", description, ...extra });
const bool = (description: string, dflt: boolean) => ({ type: "boolean", description, default: dflt });
const sku = str("Stock keeping unit, e.g. \"ACM-TENT-2P-GRN\"", { pattern: "^[A-Z0-9-]{3,32}$" });
const currency = str("ISO 4217 currency code", { enum: ["USD", "EUR", "GBP", "JPY", "CAD"] });

const READ = { readOnlyHint: true, openWorldHint: false } as const;
const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

function tool(name: string, title: string, description: string, properties: Props, required: string[], annotations: Tool["annotations"]): Tool {
  // JSON Schema literals are plain JSON; the cast only bridges Record<string, unknown> to the SDK's JSON value type.
  const inputSchema = { type: "object", properties, required, additionalProperties: false } as Tool["inputSchema"];
  return { name, title, description, inputSchema, annotations };
}

export const CATALOG_TOOLS: Tool[] = [
  tool("search_products", "Search products", "Full-text search over product names, descriptions and SKUs. Results are ranked by relevance and include price and stock status.", {
    query: str("Search terms, e.g. \"waterproof hiking boots\""),
    category_id: str("Restrict results to this category and its children"),
    min_price: { type: "number", minimum: 0, description: "Lowest price (in the store currency)" },
    max_price: { type: "number", minimum: 0, description: "Highest price (in the store currency)" },
    in_stock_only: bool("Hide products with no sellable stock", false),
    limit: int("Maximum results", { minimum: 1, maximum: 100, default: 20 }),
  }, ["query"], READ),
  tool("get_product", "Get product", "Fetch one product with its attributes, variants, current price and stock summary.", { sku }, ["sku"], READ),
  tool("list_categories", "List categories", "List catalog categories. Without a parent, returns the top-level tree.", {
    parent_id: str("Only return children of this category"),
  }, [], READ),
  tool("get_category", "Get category", "Fetch a category with its breadcrumb path and product count.", { category_id: str("Category identifier") }, ["category_id"], READ),
  tool("create_product", "Create product", "Create a draft product. Drafts are invisible to shoppers until published from the admin UI.", {
    sku, name: str("Display name shown to shoppers", { maxLength: 140 }),
    category_id: str("Primary category"), price: { type: "number", exclusiveMinimum: 0, description: "List price in the store currency" },
    description: str("Long description, Markdown allowed"),
  }, ["sku", "name", "category_id", "price"], WRITE),
  tool("update_product", "Update product", "Change name, description or category of an existing product. Only the given fields are modified.", {
    sku, name: str("New display name"), description: str("New long description"), category_id: str("New primary category"),
  }, ["sku"], { ...WRITE, idempotentHint: true }),
  tool("archive_product", "Archive product", "Remove a product from sale. Archived products disappear from search and cannot be ordered; order history is kept.", {
    sku, reason: str("Why the product is archived", { enum: ["discontinued", "recalled", "duplicate", "seasonal"] }),
  }, ["sku", "reason"], { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }),
  tool("get_price", "Get price", "Resolve the effective price of a product for a currency and optional customer segment, including active promotions.", {
    sku, currency, segment: str("Customer segment", { enum: ["retail", "wholesale", "employee"], default: "retail" }),
  }, ["sku", "currency"], READ),
  tool("set_price", "Set price", "Schedule a new list price. Takes effect immediately unless effective_from is in the future.", {
    sku, currency, amount: { type: "number", exclusiveMinimum: 0, description: "New list price" },
    effective_from: str("ISO 8601 timestamp; defaults to now", { format: "date-time" }),
  }, ["sku", "currency", "amount"], { ...WRITE, idempotentHint: true }),
  tool("list_price_history", "Price history", "List past and scheduled price changes for a product, newest first.", {
    sku, since: str("Only changes after this date", { format: "date" }),
  }, ["sku"], READ),
  tool("get_inventory", "Get inventory", "Sellable, reserved and incoming quantities for a product, per warehouse.", {
    sku, warehouse_id: str("Limit to one warehouse"),
  }, ["sku"], READ),
  tool("adjust_inventory", "Adjust inventory", "Add or remove stock in one warehouse. Every adjustment is recorded in the audit log with its reason.", {
    sku, warehouse_id: str("Warehouse identifier"), delta: int("Units to add (positive) or remove (negative)"),
    reason: str("Adjustment reason", { enum: ["received", "damaged", "cycle_count", "returned", "correction"] }),
  }, ["sku", "warehouse_id", "delta", "reason"], WRITE),
  tool("list_warehouses", "List warehouses", "List fulfilment locations with their region and cut-off times.", {}, [], READ),
  tool("list_variants", "List variants", "List size/colour variants of a product with their own SKUs and stock.", { sku }, ["sku"], READ),
  tool("create_variant", "Create variant", "Add a variant (e.g. another size or colour) to an existing product.", {
    parent_sku: sku, variant_sku: sku,
    attributes: { type: "object", description: "Variant attributes, e.g. {\"size\": \"XL\", \"color\": \"green\"}", additionalProperties: { type: "string" } },
  }, ["parent_sku", "variant_sku", "attributes"], WRITE),
  tool("get_product_images", "Get images", "List image URLs of a product in display order, with alt text.", { sku }, ["sku"], READ),
  tool("attach_image", "Attach image", "Attach an image by URL. The image is downloaded, resized and served from the catalog CDN.", {
    sku, url: str("Public HTTPS URL of a JPEG, PNG or WebP image", { format: "uri" }), alt_text: str("Accessible description of the image"),
  }, ["sku", "url", "alt_text"], { ...WRITE, openWorldHint: true }),
  tool("list_reviews", "List reviews", "List published customer reviews of a product.", {
    sku, min_rating: int("Only reviews with at least this many stars", { minimum: 1, maximum: 5 }),
    sort: str("Sort order", { enum: ["newest", "most_helpful", "lowest_rating"], default: "newest" }),
  }, ["sku"], READ),
  tool("get_review_summary", "Review summary", "Average rating, rating histogram and the most mentioned pros and cons of a product.", { sku }, ["sku"], READ),
  tool("find_similar_products", "Find similar products", "Products shoppers often view instead of this one; useful for substitutions when an item is out of stock.", {
    sku, limit: int("Maximum results", { minimum: 1, maximum: 20, default: 5 }),
  }, ["sku"], READ),
  tool("bulk_import_products", "Bulk import", "Import or update many products from a CSV file. Runs asynchronously; poll get_import_status with the returned job id.", {
    csv_url: str("HTTPS URL of the CSV file", { format: "uri" }), dry_run: bool("Validate only, change nothing", true),
  }, ["csv_url"], { ...WRITE, openWorldHint: true }),
  tool("get_import_status", "Import status", "Progress, row counts and validation errors of a bulk import job.", { job_id: str("Job id returned by bulk_import_products") }, ["job_id"], READ),
  tool("export_catalog", "Export catalog", "Export products as a downloadable file. Returns a signed URL valid for 24 hours.", {
    format: str("File format", { enum: ["csv", "json", "google_merchant"] }), category_id: str("Only export this category"),
  }, ["format"], READ),
  tool("list_recent_changes", "Recent changes", "Audit trail of catalog edits (products, prices, stock) since a point in time.", {
    since: str("ISO 8601 timestamp", { format: "date-time" }),
    entity: str("Kind of change", { enum: ["product", "price", "inventory", "all"], default: "all" }),
  }, ["since"], READ),
];
