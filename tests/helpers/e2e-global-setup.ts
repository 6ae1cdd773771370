import type { TestProject } from "vitest/node";
import { buildIfNeeded } from "@/scripts/build-if-needed";
import { ensureChromium } from "./chromium";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

/** Browser tests run against the production build, the same one `npm start` serves. */
export default async function setup(project: TestProject) {
  project.provide("chromiumPath", ensureChromium());
  await buildIfNeeded((line) => console.log(`[e2e] ${line}`));
}
