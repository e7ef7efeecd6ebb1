import { useActionData, useLocation, useMatches, useNavigate } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type FormEvent } from "react";
import { statusMessageKey } from "./errors.ts";

/*
 * Upload progress with JavaScript (docs/decisions/011). A form with a chosen file is sent by XMLHttpRequest,
 * whose `upload.onprogress` drives <UploadProgress>, as a Remix v2 data request (`?_data=<routeId>`), so the
 * route's action is the same one the plain multipart form posts to without JavaScript:
 *   - a redirect comes back as 204 with `X-Remix-Redirect`: followed with Remix's navigate (loaders revalidate);
 *   - the action's JSON (e.g. Conform's 400 reply) goes where useActionData() would have put it;
 *   - anything else is the translated error of its status (ErrorView's mapping).
 * Without JavaScript none of this runs and the form posts as before.
 */

/* ------------------------------------------ the protocol (pure) ------------------------------------------ */

/** The form's action as a Remix data request for `routeId`; null when the action is on another origin. */
export function dataRequestUrl(action: string, routeId: string, base: string): string | null {
  const url = new URL(action, base);
  if (url.origin !== new URL(base).origin) return null;
  url.searchParams.set("_data", routeId);
  return url.pathname + url.search;
}

export type UploadAnswer =
  | { kind: "redirect"; to: string; reloadDocument: boolean }
  | { kind: "data"; data: unknown }
  | { kind: "error"; messageKey: string };

function parseJson(contentType: string | null, body: string): { ok: true; value: unknown } | { ok: false } {
  if (!contentType || !/\bapplication\/json\b/.test(contentType)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

/** What the answer to a data request means (status 0 is a request that never got an answer). */
export function readAnswer(status: number, header: (name: string) => string | null, body: string): UploadAnswer {
  if (status === 0) return { kind: "error", messageKey: "errors:http.network" };
  const redirect = header("X-Remix-Redirect");
  if (redirect) return { kind: "redirect", to: redirect, reloadDocument: header("X-Remix-Reload-Document") !== null };
  const json = parseJson(header("Content-Type"), body);
  // X-Remix-Response marks what the action returned (any status); thrown responses carry X-Remix-Catch instead.
  if (header("X-Remix-Response") === "yes" && json.ok) return { kind: "data", data: json.value };
  const ok = status >= 200 && status < 300;
  return {
    kind: "error",
    messageKey: ok ? "errors:http.generic" : statusMessageKey(status, json.ok ? json.value : null),
  };
}

/** Remix replaces the history entry when a submission redirects back to the address it was made on. */
export function redirectTarget(to: string, here: URL): { path: string; replace: boolean } | null {
  const target = new URL(to, here);
  if (target.origin !== here.origin) return null;
  return {
    path: target.pathname + target.search + target.hash,
    replace: target.pathname + target.search === here.pathname + here.search,
  };
}

/* ------------------------------------- the action data of a route ------------------------------------- */

type Deliver = (data: unknown) => void;
const UploadActionData = createContext<Deliver | null>(null);

/** Put around the forms of a route that uses useActionDataWithUploads, with the function it returns. */
export const UploadActionDataProvider = UploadActionData.Provider;

/**
 * useActionData() of the route, or the JSON an upload's action answered when that is newer: it is kept
 * only while the address and the route's own action data are those it arrived over.
 */
export function useActionDataWithUploads<T>(): [T | undefined, Deliver] {
  const actionData = useActionData() as T | undefined;
  const { key } = useLocation();
  const [uploaded, setUploaded] = useState<{ data: T; locationKey: string; over: unknown } | null>(null);
  const deliver = useCallback<Deliver>(
    (data) => setUploaded({ data: data as T, locationKey: key, over: actionData }),
    [key, actionData],
  );
  const fresh = uploaded && uploaded.locationKey === key && uploaded.over === actionData ? uploaded.data : undefined;
  return [fresh ?? actionData, deliver];
}

/* ------------------------------------------------ the hook ------------------------------------------------ */

export type UploadState =
  | { phase: "idle" }
  | { phase: "sending" | "processing"; loaded: number; total: number; names: string }
  | { phase: "cancelled" }
  | { phase: "failed"; messageKey: string };

export type Upload = {
  state: UploadState;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  cancel: () => void;
};

function chosenFiles(form: HTMLFormElement): File[] {
  return Array.from(form.elements).flatMap((el) =>
    el instanceof HTMLInputElement && el.type === "file" && !el.disabled ? Array.from(el.files ?? []) : [],
  );
}

function formDataOf(form: HTMLFormElement, submitter: HTMLElement | null): FormData {
  try {
    return new FormData(form, submitter);
  } catch {
    // A browser without the submitter argument: add the button's name and value ourselves.
    const data = new FormData(form);
    if (submitter instanceof HTMLButtonElement && submitter.name) data.append(submitter.name, submitter.value);
    return data;
  }
}

/**
 * Give `onSubmit` to the form (Conform: `useForm({ onSubmit: upload.onSubmit })`, called after client
 * validation passed) and render <UploadProgress upload={upload} /> inside it. A submission without a
 * chosen file is left to Remix.
 */
export function useUpload(): Upload {
  const matches = useMatches();
  // The route the form posts to: the page's deepest route (the one whose action the wizard's forms use).
  const routeId = matches[matches.length - 1]?.id;
  const navigate = useNavigate();
  const deliver = useContext(UploadActionData);
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const request = useRef<XMLHttpRequest | null>(null);

  // Leaving the page stops an upload still under way.
  useEffect(() => () => request.current?.abort(), []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (event.defaultPrevented || !routeId || !deliver || typeof XMLHttpRequest === "undefined") return;
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter ?? null;
    const method = (submitter?.getAttribute("formmethod") || form.getAttribute("method") || "get").toLowerCase();
    const files = chosenFiles(form);
    if (method !== "post" || files.length === 0) return;
    const url = dataRequestUrl(
      submitter?.getAttribute("formaction") || form.getAttribute("action") || window.location.href,
      routeId,
      window.location.href,
    );
    if (!url) return;
    event.preventDefault();
    if (request.current) return;

    const xhr = new XMLHttpRequest();
    request.current = xhr;
    const names = files.map((f) => f.name).join(", ");
    let total = files.reduce((sum, f) => sum + f.size, 0);
    let loaded = 0;
    const done = (next: UploadState) => {
      request.current = null;
      setState(next);
    };
    setState({ phase: "sending", loaded, total, names });
    xhr.upload.onprogress = (e) => {
      loaded = e.loaded;
      if (e.lengthComputable) total = e.total;
      setState({ phase: "sending", loaded, total, names });
    };
    // Every byte is sent: the server is checking and saving; cancelling now could not promise nothing was saved.
    xhr.upload.onload = () => setState({ phase: "processing", loaded: total, total, names });
    xhr.onabort = () => done({ phase: "cancelled" });
    xhr.onerror = () => done({ phase: "failed", messageKey: "errors:http.network" });
    xhr.onload = () => {
      const answer = readAnswer(xhr.status, (name) => xhr.getResponseHeader(name), xhr.responseText);
      if (answer.kind === "error") return done({ phase: "failed", messageKey: answer.messageKey });
      done({ phase: "idle" });
      if (answer.kind === "data") return deliver(answer.data);
      const here = new URL(window.location.href);
      const target = answer.reloadDocument ? null : redirectTarget(answer.to, here);
      if (target) navigate(target.path, { replace: target.replace });
      else window.location.assign(new URL(answer.to, here).href);
    };
    xhr.open("POST", url);
    xhr.send(formDataOf(form, submitter));
  };

  const cancel = () => request.current?.abort();
  return { state, busy: state.phase === "sending" || state.phase === "processing", onSubmit, cancel };
}
