import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** A second server with the same name in a team is a 409 (create and rename alike), not a 500. */
export async function withNameConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2002" || isRawUniqueViolation(error))) {
      throw new AppError("CONFLICT", `A server named "${name}" already exists in this team`);
    }
    throw error;
  }
}

/** A unique violation raised by a raw statement (the batch's set-based INSERT) comes as P2010. */
function isRawUniqueViolation(error: Prisma.PrismaClientKnownRequestError): boolean {
  const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string } } } | undefined)?.driverAdapterError?.cause;
  return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
}

