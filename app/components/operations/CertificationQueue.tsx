import { useTranslation } from "react-i18next";
import { CertState, type CertificationRow } from "#contract/certification.ts";
import { approveReject, DecisionForm, ReviewCard, ReviewCards } from "#app/components/ReviewRow.tsx";
import { EmptyState } from "#app/components/EmptyState.tsx";
import { FilterPills } from "#app/components/FilterPills.tsx";
import { CertStateBadge } from "#app/components/profile/Certification.tsx";
import { formatDate } from "#app/lib/format.ts";

export const CERT_QUEUE = "/g/home/operations/Certifications";

/**
 * Operations: enterprise certifications (docs/decisions/071). Each waiting account shows its company, country,
 * credit code (with whether it passes the GB 32100 check digit, for China) and its licence, and is approved or
 * rejected with a reason in the queue kit's DecisionForm (confirmed first).
 */
export function CertificationQueue({
  page,
  status,
  language,
}: {
  page: { rows: CertificationRow[]; total: number; pageIndex: number; pageSize: number };
  status: "open" | "all";
  language: Parameters<typeof formatDate>[1];
}) {
  const { t } = useTranslation("profile");
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("certification.ops.title")}</h2>
      <p className="text-sm text-slate-600">{t("certification.ops.intro")}</p>
      <FilterPills
        label={t("certification.ops.filter")}
        links={[
          { key: "open", to: CERT_QUEUE, label: t("certification.ops.open"), current: status === "open" },
          { key: "all", to: `${CERT_QUEUE}?status=all`, label: t("certification.ops.all"), current: status === "all" },
        ]}
      />
      <ReviewCards page={page} empty={<EmptyState message={t("certification.ops.empty")} testId="empty" />}>
        {(r) => (
          <ReviewCard
            key={r.userId}
            id={`cert-review-${r.userId}`}
            testId="cert-review"
            title={
              <>
                {r.companyName ?? "—"} <span className="text-xs font-normal text-slate-600">{r.userName}</span>
              </>
            }
            badge={<CertStateBadge state={r.state} />}
          >
            <dl className="grid gap-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-500">{t("information.country")}</dt>
                <dd data-user-content="">{r.country ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-slate-500">{t("information.creditCode")}</dt>
                <dd>
                  <span className="font-mono" data-testid="cert-credit-code">
                    {r.creditCode ?? "—"}
                  </span>
                  {r.checkDigitOk === null ? null : (
                    <span className={`ml-2 text-xs ${r.checkDigitOk ? "text-green-700" : "text-red-700"}`}>
                      {t("certification.ops.checkDigit")}:{" "}
                      {t(r.checkDigitOk ? "certification.ops.checkOk" : "certification.ops.checkBad")}
                    </span>
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">{t("certification.ops.licenceFile")}</dt>
                <dd>
                  {r.licenceName ? (
                    <a
                      className="link"
                      href={`/g/home/operations/CertificationLicence?userId=${r.userId}`}
                      data-testid="cert-licence"
                    >
                      {t("certification.ops.download")} (<span data-user-content="">{r.licenceName}</span>)
                    </a>
                  ) : (
                    t("certification.ops.noLicence")
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">{t("certification.submittedAt")}</dt>
                <dd>{r.submittedAt ? formatDate(r.submittedAt, language, true) : "—"}</dd>
              </div>
              {r.state === CertState.REJECTED && r.reason ? (
                <div className="sm:col-span-2">
                  <dt className="text-slate-500">{t("certification.reason")}</dt>
                  <dd data-user-content="">{r.reason}</dd>
                </div>
              ) : null}
            </dl>
            {r.state === CertState.PENDING ? (
              <DecisionForm
                id={`cert-review-${r.userId}-decision`}
                intent="review"
                idName="userId"
                idValue={r.userId}
                subject={r.companyName ?? r.userName}
                decisions={approveReject(t, "certification.ops")}
                comments={{ label: t("certification.ops.comments"), hint: t("certification.ops.commentsHint") }}
              />
            ) : null}
          </ReviewCard>
        )}
      </ReviewCards>
    </div>
  );
}
