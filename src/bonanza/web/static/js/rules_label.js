// The rule set in play as the table shows it, such as "Draw 3 · 3 passes · Vegas".

export const SCORING_NAMES = {
  none: "No scoring", standard: "Standard", timed: "Timed", vegas: "Vegas", "vegas-cumulative": "Cumulative Vegas",
};

export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const passesText = (passes) => (passes === null ? "Unlimited passes" : plural(passes, "pass", "passes"));

/** Whether the stock deals a card onto every column (Easthaven): no draw, no waste, no passes. */
export const dealsOntoColumns = (rules) => rules.stock_mode === "columns";

/** The rule set in a short line, such as "Draw 3 · 3 passes · Vegas". */
export function rulesLabel(rules) {
  const parts = dealsOntoColumns(rules) ? ["Stock deals onto every column"] : [`Draw ${rules.draw}`, passesText(rules.passes)];
  if (rules.empty_column === "any") parts.push("Any card to empty");
  if (!rules.recall) parts.push("No recall");
  if (!rules.partial_runs) parts.push("Whole runs");
  if (rules.thoughtful) parts.push("Thoughtful");
  parts.push(SCORING_NAMES[rules.scoring] ?? rules.scoring);
  return parts.join(" · ");
}

/** The passes still to come when they are limited ("2 more passes", "Last pass"), else "". */
export function passesLeft(rules, position) {
  const left = position.recycles_left;
  if (rules.passes === null || typeof left !== "number" || dealsOntoColumns(rules)) return "";
  return left ? plural(left, "more pass", "more passes") : "Last pass";
}

/** What the table's rules label says for ``state``. */
export function tableLabel(state) {
  return [rulesLabel(state.rules), passesLeft(state.rules, state.position)].filter(Boolean).join(" · ");
}
