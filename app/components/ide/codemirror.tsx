import { solidity } from "@replit/codemirror-lang-solidity";
import CodeMirror from "@uiw/react-codemirror";

/**
 * CodeMirror with Solidity highlighting (docs/decisions/044): loaded by SolidityEditor only in the browser,
 * after hydration, as a chunk of its own; every change is written back to the form's textarea.
 */
export default function CodeEditor({ value, onChange, label, readOnly }: { value: string; onChange: (v: string) => void; label: string; readOnly?: boolean }) {
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={[solidity]}
      readOnly={readOnly}
      aria-label={label}
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: true }}
      minHeight="24rem"
      maxHeight="70vh"
      className="overflow-hidden rounded-md border border-slate-300 text-sm"
      data-testid="codemirror"
    />
  );
}
