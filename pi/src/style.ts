// The component's styled lines in Pi's colors: each style token maps to a
// theme color, nothing else is decided here.

import type { Theme, ThemeColor } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import type { Line, Style } from "@tasklists/node-host";

const COLORS: Record<Exclude<Style, "strong">, ThemeColor> = {
  text: "text",
  accent: "accent",
  muted: "muted",
  success: "success",
  warning: "warning",
  error: "error",
};

/** The component's lines as terminal strings in the theme's colors. */
export function styled(theme: Theme, lines: Line[]): string[] {
  return lines.map((line) =>
    line.map((span) => (span.style === "strong" ? theme.bold(span.text) : theme.fg(COLORS[span.style], span.text))).join(""),
  );
}

/** The component's lines without any styling (what a notice or the model gets). */
export function plain(lines: Line[]): string[] {
  return lines.map((line) => line.map((span) => span.text).join(""));
}

/** A pi-tui text block showing the lines (reusing the previous one when given). */
export function textBlock(lines: string[], previous?: unknown): Text {
  const text = previous instanceof Text ? previous : new Text("", 0, 0);
  text.setText(lines.join("\n"));
  return text;
}

/** The columns the component lays out for: the terminal's, less Pi's one-column padding each side. */
export function layoutWidth(): number {
  const columns = process.stdout.isTTY ? process.stdout.columns : 0;
  return Math.max(20, (columns || 80) - 2);
}
