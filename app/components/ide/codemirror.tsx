import { solidity } from "@replit/codemirror-lang-solidity";
import CodeMirror, {
  Decoration,
  EditorView,
  gutter,
  GutterMarker,
  RangeSetBuilder,
  type EditorState,
} from "@uiw/react-codemirror";
import { useMemo } from "react";

/** A compiler error at a line of the file shown (1-based), with its message. */
export type LineError = { line: number; message: string };

class ErrorMarker extends GutterMarker {
  constructor(private readonly message: string) {
    super();
  }
  override eq(other: GutterMarker) {
    return other instanceof ErrorMarker && other.message === this.message;
  }
  override toDOM() {
    const mark = document.createElement("span");
    mark.textContent = "●";
    mark.title = this.message;
    mark.setAttribute("aria-hidden", "true");
    return mark;
  }
}

/** The messages by line number, several on one line joined. */
function byLine(errors: LineError[]): Map<number, string> {
  const lines = new Map<number, string>();
  for (const e of errors) lines.set(e.line, lines.has(e.line) ? `${lines.get(e.line)}\n${e.message}` : e.message);
  return lines;
}

/**
 * The compiler's errors marked in the editor (issue 30): the line tinted red with the message as its title, and
 * a red dot in a gutter of its own. The messages themselves are listed beside the editor for everyone.
 */
function errorMarks(errors: LineError[]) {
  const lines = byLine(errors);
  const decorations = (state: EditorState) => {
    const builder = new RangeSetBuilder<Decoration>();
    for (const n of [...lines.keys()].sort((a, b) => a - b)) {
      if (n < 1 || n > state.doc.lines) continue;
      const line = state.doc.line(n);
      builder.add(
        line.from,
        line.from,
        Decoration.line({
          class: "cm-ide-error-line",
          attributes: { title: lines.get(n)!, "data-error-line": String(n) },
        }),
      );
    }
    return builder.finish();
  };
  return [
    EditorView.decorations.compute(["doc"], decorations),
    gutter({
      class: "cm-ide-error-gutter",
      lineMarker(view, block) {
        const message = lines.get(view.state.doc.lineAt(block.from).number);
        return message ? new ErrorMarker(message) : null;
      },
      initialSpacer: () => new ErrorMarker(""),
    }),
    EditorView.baseTheme({
      ".cm-ide-error-line": { backgroundColor: "#fef2f2", boxShadow: "inset 3px 0 0 #dc2626" },
      ".cm-ide-error-gutter": { color: "#dc2626", minWidth: "1em", textAlign: "center" },
    }),
  ];
}

/**
 * CodeMirror with Solidity highlighting (docs/decisions/044): loaded by SolidityEditor only in the browser,
 * after hydration, as a chunk of its own; every change is written back to the form's textarea. Lines wrap and
 * the editor grows with its content, so it has no scrolling region of its own (keyboard users reach all of it).
 * The last compilation's errors in this file are marked at their lines.
 */
export default function CodeEditor({
  value,
  onChange,
  label,
  errors = [],
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  errors?: LineError[];
}) {
  const errorKey = JSON.stringify(errors);
  const extensions = useMemo(
    () => [
      solidity,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
      ...errorMarks(JSON.parse(errorKey) as LineError[]),
    ],
    [label, errorKey],
  );
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: true }}
      minHeight="24rem"
      className="overflow-hidden rounded-md border border-slate-300 text-sm"
      data-testid="codemirror"
    />
  );
}
