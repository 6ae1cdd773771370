"use client";

/** The outcome of an action the user just took: an error is announced at once, success politely. */
export type Flash = { kind: "ok" | "error"; text: string };

export function FlashMessage({ message, as: Tag = "span" }: { message: Flash | null; as?: "span" | "p" }) {
  if (!message) return null;
  return (
    <Tag role={message.kind === "error" ? "alert" : "status"} className={message.kind === "error" ? "field-error" : "ok-text"}>
      {message.text}
    </Tag>
  );
}
