import { Link } from "@remix-run/react";
import { Trans, useTranslation } from "react-i18next";
import type { KeySeen, SeenKeyAction } from "#contract/activity.ts";
import { formatDate } from "#app/lib/format.ts";

export type KeysSeenData = {
  memberId: number;
  /** True after the removal (`?removed=`), false on its confirm step. */
  removed: boolean;
  memberName: string | null;
  keys: KeySeen[];
};

/** Where each kind of key is changed: its own page (a certificate's private key: My certificates). */
const PAGE_OF: Record<SeenKeyAction, (id: string) => string> = {
  "publicChain.projectKey": (id) => `/g/home/PermissionlessServices/Project?projectId=${id}`,
  "publicChain.keystore": (id) => `/g/home/PermissionlessServices/Account?accountId=${id}`,
  "ipfs.key": (id) => `/g/home/IPFS/Service?ipfsServiceId=${id}`,
  "dedicatedNode.password": (id) => `/g/home/PrivatedNodesConfig?prnProjectId=${encodeURIComponent(id)}`,
  "participation.certificateFile": () => "/g/home/MyCertificates",
};

/** The keys a member saw, each with a link to where it is changed (issue 33); nothing when there are none. */
export function KeysSeenList({ keys, language }: { keys: KeySeen[]; language: "en" | "zh-CN" }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="keys-seen">
      {keys.map((k) => (
        <li key={`${k.action}-${k.targetId}`} className="flex flex-wrap items-center justify-between gap-2 py-2">
          <span>
            {t(`team.keysSeen.items.${k.action}`, { id: k.targetId ?? "" })}
            <span className="ml-2 text-xs text-slate-500">
              {t("team.keysSeen.lastSeen", { at: formatDate(k.lastAt, language, true) })}
            </span>
          </span>
          <Link className="link" to={PAGE_OF[k.action](k.targetId ?? "")}>
            {t(`team.keysSeen.actions.${k.action}`)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A member's name inside a sentence, marked as user data (the words walks do not judge it). */
export function NameIn({ i18nKey, name }: { i18nKey: string; name: string }) {
  const { t } = useTranslation();
  return <Trans t={t} i18nKey={i18nKey} values={{ name }} components={{ name: <span data-user-content="" /> }} />;
}

/** After a removal: the keys the removed member saw, to be changed now. */
export function KeysSeenAfterRemoval({ seen, language }: { seen: KeysSeenData; language: "en" | "zh-CN" }) {
  if (!seen.removed || seen.keys.length === 0) return null;
  const name = seen.memberName ?? "";
  return (
    <section className="card space-y-3 border-amber-300" aria-labelledby="keys-seen-title" data-testid="keys-after">
      <h2 id="keys-seen-title" className="text-base font-semibold">
        <NameIn i18nKey="team.keysSeen.after" name={name} />
      </h2>
      <p className="text-sm text-slate-700">
        <NameIn i18nKey="team.keysSeen.afterIntro" name={name} />
      </p>
      <KeysSeenList keys={seen.keys} language={language} />
    </section>
  );
}
