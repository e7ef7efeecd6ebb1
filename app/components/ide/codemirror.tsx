import { solidity } from "@replit/codemirror-lang-solidity";
import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { useMemo } from "react";

/**
 * CodeMirror with Solidity highlighting (docs/decisions/044): loaded by SolidityEditor only in the browser,
 * after hydration, as a chunk of its own; every change is written back to the form's textarea. Lines wrap and
 * the editor grows with its content, so it has no scrolling region of its own (keyboard users reach all of it).
 */
export default function CodeEditor({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  const extensions = useMemo(
    () => [
      solidity,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
    ],
    [label],
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
