"use client";
/**
 * A YAML editor (CodeMirror) with line numbers, and the problems it is given
 * shown inline: a marker in the gutter and the text underlined from the
 * field's line and column. The problems come from outside (the check that
 * runs as the user types, or the server's answer), so the editor only shows.
 */
import { yaml } from "@codemirror/lang-yaml";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import CodeMirror, {
  type EditorState,
  EditorView,
  Prec,
  type ReactCodeMirrorRef,
} from "@uiw/react-codemirror";
import { useTheme } from "next-themes";
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from "react";

export interface EditorIssue {
  field: string;
  message: string;
  line?: number | undefined;
  column?: number | undefined;
}

/** Where an issue sits in the document: its line from its column (1-based) to the line's end. */
function diagnosticOf(state: EditorState, issue: EditorIssue): Diagnostic {
  const doc = state.doc;
  const line = doc.line(Math.min(Math.max(issue.line ?? 1, 1), doc.lines));
  const from = Math.min(line.from + Math.max((issue.column ?? 1) - 1, 0), line.to);
  return {
    from,
    to: Math.max(from, line.to),
    severity: "error",
    message: issue.field ? `${issue.field}: ${issue.message}` : issue.message,
  };
}

/**
 * The editor on the console's own surface, its line numbers in the palette's
 * muted colour, light and dark: on One Dark's lighter grey its comments and
 * keys, and its gutter, fall below 4.5:1 (WCAG 1.4.3). Highest precedence,
 * so it wins over the light or dark theme the editor is given.
 */
const paletteTheme = Prec.highest(
  EditorView.theme({
    "&": { backgroundColor: "var(--surface)" },
    ".cm-gutters": {
      backgroundColor: "var(--surface-2)",
      color: "var(--muted)",
      borderRight: "1px solid var(--border)",
    },
    ".cm-activeLineGutter": { backgroundColor: "var(--border)", color: "var(--fg)" },
  }),
);

export interface YamlEditorHandle {
  /** Puts the cursor on a line and scrolls to it. */
  goToLine(line: number): void;
}

export const YamlEditor = forwardRef<
  YamlEditorHandle,
  {
    value: string;
    onChange?: (value: string) => void;
    issues?: readonly EditorIssue[];
    readOnly?: boolean;
    label: string;
    minHeight?: string;
    maxHeight?: string;
    testId?: string;
  }
>(function YamlEditor(
  {
    value,
    onChange,
    issues = [],
    readOnly = false,
    label,
    minHeight = "20rem",
    maxHeight = "70vh",
    testId,
  },
  handle,
) {
  const { resolvedTheme } = useTheme();
  const ref = useRef<ReactCodeMirrorRef>(null);
  const extensions = useMemo(
    () => [
      yaml(),
      lintGutter(),
      paletteTheme,
      EditorView.lineWrapping,
      // The editable text itself carries the name (screen readers, tests).
      EditorView.contentAttributes.of({ "aria-label": label }),
    ],
    [label],
  );

  // Re-place the markers whenever the problems (or the text they point into) change.
  useEffect(() => {
    const view = ref.current?.view;
    if (!view) return;
    view.dispatch(
      setDiagnostics(
        view.state,
        issues.map((i) => diagnosticOf(view.state, i)),
      ),
    );
  }, [issues]);

  useImperativeHandle(handle, () => ({
    goToLine(n: number) {
      const view = ref.current?.view;
      if (!view) return;
      const line = view.state.doc.line(Math.min(Math.max(n, 1), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
  }));

  return (
    <div
      className="overflow-hidden rounded-md border border-border text-[13px] [&_.cm-editor.cm-focused]:outline-none"
      data-testid={testId}
      data-issues={issues.length}
    >
      <CodeMirror
        ref={ref}
        value={value}
        onChange={onChange}
        readOnly={readOnly}
        editable={!readOnly}
        extensions={extensions}
        theme={resolvedTheme === "dark" ? "dark" : "light"}
        minHeight={minHeight}
        maxHeight={maxHeight}
        basicSetup={{ foldGutter: false, highlightActiveLine: !readOnly, autocompletion: false }}
      />
    </div>
  );
});
