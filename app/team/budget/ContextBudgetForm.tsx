"use client";

import { useState, type FormEvent } from "react";
import { FormError, TextField } from "@/app/_components/Field";
import { ApiError } from "@/app/_hooks/api";
import { useUpdateContextBudget } from "@/app/_hooks/context-budget-queries";
import { CONTEXT_TOKENS_LABEL } from "@/lib/context-tokens/encoding";

/**
 * Sets the team's context budget: what all its servers' tool lists may cost together in a model's
 * context before a context_budget alert warns (docs/context-budget.md). Admins only; others are told so.
 */
export function ContextBudgetForm({ canEdit, budgetTokens }: { canEdit: boolean; /** The saved budget (the page's report); undefined while it loads. */ budgetTokens: number | null | undefined }) {
  const update = useUpdateContextBudget();
  const [draft, setDraft] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const value = draft ?? (budgetTokens != null ? String(budgetTokens) : "");

  async function save(budget: number | null) {
    setError(null);
    setFieldError(undefined);
    try {
      await update.mutateAsync(budget);
      setDraft(null);
    } catch (e) {
      const err = e instanceof ApiError ? e : null;
      if (err?.fields.budgetTokens) setFieldError(err.fields.budgetTokens);
      else setError(err?.message ?? "Could not save the budget");
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = value.replace(/[\s,_]/g, "");
    if (text === "") return void save(null);
    if (!/^\d+$/.test(text) || Number(text) < 1) {
      setFieldError("Enter a whole number of tokens (at least 1), or leave it empty to turn the budget off.");
      return;
    }
    void save(Number(text));
  }

  return (
    <section className="card" aria-labelledby="budget-form-heading">
      <h2 id="budget-form-heading">Set the budget</h2>
      {canEdit ? (
        <form className="form inline-form" onSubmit={submit} noValidate>
          <TextField
            label="Budget (tokens)"
            inputMode="numeric"
            value={value}
            onChange={setDraft}
            error={fieldError}
            hint={`Sum of every server's latest tool list, ${CONTEXT_TOKENS_LABEL}. Empty turns the budget and its alert off.`}
          />
          <div className="actions">
            <button type="submit" className="button" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save budget"}
            </button>
          </div>
        </form>
      ) : (
        <p className="muted small">Only team owners and admins can change the budget.</p>
      )}
      <FormError message={error} />
    </section>
  );
}
