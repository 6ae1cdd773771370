import { LoginPage } from "./LoginPage";

export const metadata = { title: "Sign in · Toolwatch" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next, mode } = await searchParams;
  return <LoginPage next={typeof next === "string" ? next : null} initialMode={mode === "signup" ? "signup" : "signin"} />;
}
