import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import { call, compile, deploy } from "./handlers/build.ts";
import { createFile, deleteFile, renameFile, saveFile } from "./handlers/files.ts";
import {
  createWorkspace,
  deleteWorkspace,
  issueGrant,
  listTemplates,
  listWorkspaces,
  openWorkspace,
  renameWorkspace,
} from "./handlers/workspaces.ts";
import { listIdeTemplates } from "./templates.ts";

/**
 * The online IDE (SPEC §1, §2 IDEServices and /ide/portal, §8 MSG_20016; contract/ide.ts; docs/decisions/044):
 * workspaces of files in the database, compiled by the chain domain's solc worker, deployed and called through
 * the contracts domain's api, behind a short-lived IDE authorisation renewed by activity.
 */
export default defineDomain({
  name: "ide",
  handlers: handlersOf({
    "/sys/ide/template/list": listTemplates,
    "/sys/ide/workspace/list": listWorkspaces,
    "/sys/ide/workspace/create": createWorkspace,
    "/sys/ide/workspace/rename": renameWorkspace,
    "/sys/ide/workspace/delete": deleteWorkspace,
    "/sys/ide/grant": issueGrant,
    "/sys/ide/workspace/open": openWorkspace,
    "/sys/ide/file/create": createFile,
    "/sys/ide/file/rename": renameFile,
    "/sys/ide/file/delete": deleteFile,
    "/sys/ide/file/save": saveFile,
    "/sys/ide/compile": compile,
    "/sys/ide/deploy": deploy,
    "/sys/ide/call": call,
  }),
  api: {
    /** Every template a workspace may start from (the samples; the chaincode market's Solidity entries join at merge). */
    listIdeTemplates,
  },
});
