import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TestService } from "#contract/test-services.ts";
import { ConfirmSubmit } from "#app/components/ConfirmSubmit.tsx";
import { actionsOf } from "#app/lib/test-services-rules.ts";

/** The actions of a test service's status (SPEC §4): edit, start deploying; upgrade, re-deploy and delete ask first. */
export function TestServiceActions({ service }: { service: TestService }) {
  const { t } = useTranslation("testServices");
  const can = actionsOf(service.status);
  const id = service.testServiceId;
  const confirm = (intent: "upgrade" | "redeploy" | "delete", className: string) => (
    <Form method="post" id={`ts-${intent}`}>
      <input type="hidden" name="testServiceId" value={id} />
      <ConfirmSubmit
        formId={`ts-${intent}`}
        name="intent"
        value={intent}
        label={t(`actions.${intent}`)}
        title={t(`confirm.${intent}.title`)}
        question={t(`confirm.${intent}.question`, { name: service.name })}
        confirmLabel={t(`actions.${intent}`)}
        className={className}
      />
    </Form>
  );
  return (
    <div className="flex flex-wrap gap-2" data-testid="test-service-actions">
      {can.edit ? (
        <Link to={`/g/home/TestServices/TestServicesNew?id=${id}`} className="btn-secondary">
          {t("actions.edit")}
        </Link>
      ) : null}
      {can.deploy ? (
        <Form method="post">
          <input type="hidden" name="testServiceId" value={id} />
          <button type="submit" name="intent" value="deploy" className="btn-primary">
            {t("actions.deploy")}
          </button>
        </Form>
      ) : null}
      {can.upgrade ? confirm("upgrade", "btn-secondary") : null}
      {can.redeploy ? confirm("redeploy", "btn-secondary") : null}
      {can.remove ? confirm("delete", "btn-danger") : null}
    </div>
  );
}
