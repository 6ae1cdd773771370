import { z } from "zod";

// Bodies of the reviewer verbs. A comment is free text kept with the decision in the audit log.
const comment = z.string().trim().max(2_000, "comment is at most 2000 characters").optional();
const hash = z.string().trim().min(1, "hash is required").max(200);

export const AcknowledgeInput = z.object({ comment });
export const BulkAcknowledgeInput = z.object({ ids: z.array(z.string().max(100)).min(1, "ids needs at least one alert id").max(200, "at most 200 alerts at once"), comment });
/** `hash`: the version the reviewer saw; refused (409) when the live definition moved on. */
export const ApproveInput = z.object({ hash, comment });
export const RejectInput = z.object({ hash: hash.optional(), comment });

/** An empty comment is no comment. */
export const commentOf = (input: { comment?: string }) => (input.comment ? input.comment : null);
