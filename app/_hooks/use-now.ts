"use client";

import { useEffect, useState } from "react";

/** The clock, ticking every `everyMs`: relative times and "time left" move without any event. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
