import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CredentialRecord } from "#contract/did.ts";
import { Table, td } from "#app/components/Table.tsx";
import { formatDate, zoneHeader } from "#app/lib/format.ts";
import type { Language } from "#app/lib/i18n.ts";
import { CredentialState, Mono } from "./views.tsx";
import { credentialHref } from "#app/lib/did-urls.ts";

/** A list of credentials: issued by the user, or to them. */
export function CredentialTable({
  rows,
  language,
  side,
}: {
  rows: CredentialRecord[];
  language: Language;
  side: "issued" | "received";
}) {
  const { t } = useTranslation("did");
  return (
    <Table
      label={t(`credentials.sides.${side}`)}
      regionTestId={`credentials-${side}`}
      head={[
        t("credential.kind"),
        side === "issued" ? t("credential.subject") : t("credential.issuer"),
        zoneHeader(t, t("credential.issuedAt")),
        zoneHeader(t, t("credential.validUntil")),
        t("credential.state.label"),
        "",
      ]}
    >
      {rows.map((c) => (
        <tr key={c.credentialId} data-testid="credential-row">
          <td className={td}>
            {t(`kind.${c.kind}`)}
            {c.kind === "role" && typeof c.claims.role === "string" ? (
              <span className="block text-xs text-slate-600">{c.claims.role}</span>
            ) : null}
          </td>
          <td className={`${td} max-w-xs`}>
            <Mono>{side === "issued" ? c.subjectDid : c.issuerDid}</Mono>
          </td>
          <td className={td}>{formatDate(c.issuedAt, language, true, false)}</td>
          <td className={td}>{formatDate(c.expiresAt, language, true, false)}</td>
          <td className={td}>
            <CredentialState revokedAt={c.revokedAt} expiresAt={c.expiresAt} />
          </td>
          <td className={td}>
            <Link className="link" to={credentialHref(c.credentialId)}>
              {t("credential.open")}
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}
