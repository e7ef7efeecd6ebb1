import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Verification } from "#contract/did.ts";
import { Badge } from "#app/components/Badge.tsx";
import { Field } from "#app/components/details.tsx";
import { DID_HOME } from "#app/lib/did-urls.ts";
import { formatDate } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";

/** Shared UI of the DID service (issue 18; docs/decisions/043). */

/** The three screens of the service as tabs (plain links). */
export function DidTabs() {
  const { t } = useTranslation("did");
  const tabs = [
    { to: DID_HOME, label: t("tabs.dids"), end: true },
    { to: `${DID_HOME}/Credentials`, label: t("tabs.credentials"), end: false },
    { to: `${DID_HOME}/Verify`, label: t("tabs.verify"), end: false },
  ];
  return (
    <nav aria-label={t("tabs.label")} className="flex gap-4 border-b border-slate-200 text-sm">
      {tabs.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          end={tab.end}
          className={({ isActive }) =>
            `-mb-px border-b-2 px-1 pb-2 ${isActive ? "border-brand-600 font-semibold text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** A value that may be long (a DID, a JWT): monospace, broken anywhere. */
export function Mono({ children, testId }: { children: string; testId?: string }) {
  return (
    <code className="break-all font-mono text-xs text-slate-800" data-testid={testId}>
      {children}
    </code>
  );
}

/** The claims the portal itself issues (enterprise certified, service roles), named in words in both languages. */
const KNOWN_CLAIMS = [
  "enterprise",
  "name",
  "creditCode",
  "country",
  "certified",
  "service",
  "appCode",
  "role",
] as const;

/** A claim's name: in words when the portal issues it, else as the issuer wrote it (marked as data, not ours). */
function ClaimName({ name }: { name: string }) {
  const { t } = useTranslation("did");
  if ((KNOWN_CLAIMS as readonly string[]).includes(name)) return <>{t(`claimNames.${name}`)}</>;
  return <span data-user-content="">{name}</span>;
}

/** Claims as a definition list: nested values as nested lists, never as JSON (issue 30 item 7). */
export function Claims({ claims }: { claims: Record<string, unknown> }) {
  const { t } = useTranslation("did");
  const entries = Object.entries(claims).filter(([k]) => k !== "id");
  if (entries.length === 0) return <p className="text-sm text-slate-600">{t("verify.noClaims")}</p>;
  return (
    <dl className="grid gap-2 sm:grid-cols-2" data-testid="claims">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt className="text-xs font-semibold uppercase text-slate-500">
            <ClaimName name={k} />
          </dt>
          <dd className="mt-0.5 text-sm text-slate-900">
            <ClaimValue value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One claim's value as people read it: text, a list, or the names and values of an object. */
function ClaimValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  if (Array.isArray(value))
    return (
      <ul className="list-inside list-disc">
        {value.map((item, i) => (
          <li key={i}>
            <ClaimValue value={item} />
          </li>
        ))}
      </ul>
    );
  if (typeof value === "object")
    return (
      <dl className="space-y-1 border-l border-slate-200 pl-3">
        {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs text-slate-500">
              <ClaimName name={k} />
            </dt>
            <dd>
              <ClaimValue value={v} />
            </dd>
          </div>
        ))}
      </dl>
    );
  if (typeof value === "boolean") return <ClaimFlag value={value} />;
  return <span data-user-content="">{String(value)}</span>;
}

/** A yes/no claim in words. */
function ClaimFlag({ value }: { value: boolean }) {
  const { t } = useTranslation("did");
  return <>{t(value ? "claimValues.yes" : "claimValues.no")}</>;
}

/** The state of an issued credential: revoked, expired or valid (at the time shown). */
export function CredentialState({ revokedAt, expiresAt }: { revokedAt: string | null; expiresAt: string }) {
  const { t } = useTranslation("did");
  if (revokedAt) return <Badge tone="off">{t("credential.state.revoked")}</Badge>;
  if (new Date(expiresAt).getTime() < Date.now()) return <Badge tone="wait">{t("credential.state.expired")}</Badge>;
  return <Badge tone="ok">{t("credential.state.valid")}</Badge>;
}

/** The outcome of a verification: verified or why not, then what the credential says. */
export function VerificationResult({ result, language }: { result: Verification; language: Language }) {
  const { t } = useTranslation("did");
  return (
    <section className="card space-y-4" aria-labelledby="verify-result" data-testid="verify-result">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="verify-result" className="text-lg font-semibold">
          {t("verify.result")}
        </h2>
        {result.verified ? (
          <Badge tone="ok">{t("verify.verified")}</Badge>
        ) : (
          <Badge tone="bad">{t("verify.failed")}</Badge>
        )}
      </div>
      {result.reason ? (
        <p className="text-sm font-medium text-red-800" role="alert" data-testid="verify-reason">
          {t(`verify.reason.${result.reason}`)}
        </p>
      ) : (
        <p className="text-sm text-slate-700">{t("verify.verifiedText")}</p>
      )}
      <dl className="grid gap-3 sm:grid-cols-2">
        <Field label={t("credential.issuer")}>
          {result.issuer ? <Mono testId="verify-issuer">{result.issuer}</Mono> : "—"}
        </Field>
        <Field label={t("credential.subject")}>
          {result.subject ? <Mono testId="verify-subject">{result.subject}</Mono> : "—"}
        </Field>
        <Field label={t("credential.types")}>{result.types.join(", ") || "—"}</Field>
        <Field label={t("credential.issuedAt")}>{formatDate(result.issuedAt, language, true) || "—"}</Field>
        <Field label={t("credential.validFrom")}>{formatDate(result.validFrom, language, true) || "—"}</Field>
        <Field label={t("credential.validUntil")}>
          {formatDate(result.validUntil, language, true) || t("credential.noExpiry")}
        </Field>
        <Field label={t("credential.revocation")}>
          <span data-testid="verify-revocation">
            {!result.status
              ? t("verify.status.none")
              : result.status.revoked === null
                ? t("verify.status.unknown")
                : result.status.revoked
                  ? t("verify.status.revoked")
                  : t("verify.status.active")}
          </span>
          {result.status ? (
            <span className="block text-xs text-slate-600">
              <Mono>{`${result.status.listUrl} #${result.status.index}`}</Mono>
            </span>
          ) : null}
        </Field>
      </dl>
      <div>
        <h3 className="mb-2 text-sm font-semibold">{t("credential.claims")}</h3>
        <Claims claims={result.claims} />
      </div>
    </section>
  );
}
