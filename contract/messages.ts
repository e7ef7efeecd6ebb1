/**
 * The message keys of the /vueapi protocol (SPEC §8). The backend answers these keys in `message`;
 * the portal translates them from the `errors` namespace of locales/en and locales/zh-CN.
 */
export const Msg = {
  /** Request parameters failed validation; `data.fieldErrors` says which. */
  INVALID_PARAMS: "MSG_10001",
  NOT_FOUND: "MSG_10002",
  /** Session invalid: no token (please log in). */
  PLEASE_LOGIN: "MSG_10004",
  /** Session invalid: the token expired (login timeout). */
  LOGIN_TIMEOUT: "MSG_10005",
  /** Session invalid: the token was revoked (session ended). */
  SESSION_ENDED: "MSG_10009",
  /** Code 4: the caller may not use this path (operators only). */
  NO_PERMISSION: "MSG_10403",
  SERVER_ERROR: "MSG_10500",
  /**
   * A network engine (a chain, the IPFS engine, the Fabric peer, a dedicated network) is changing hands between portal
   * processes, or its holder cannot be reached: nothing was acknowledged; HTTP 503 with Retry-After (docs/decisions/109).
   */
  ENGINE_MOVING: "MSG_10503",
  /** The record exists already or another request changed it first (a unique constraint; HTTP 409). */
  CONFLICT: "MSG_10409",
  /** Too many requests from this address or for this account in a short time: HTTP 429 with Retry-After (docs/decisions/021). */
  RATE_LIMITED: "MSG_10429",
  /** The request's body is larger than its path accepts (HTTP 413; docs/decisions/023). */
  REQUEST_TOO_LARGE: "MSG_10413",
  /* Teams (MSG_33001-33099; docs/decisions/075): the refusals by role are in contract/team-roles.ts (33001-33005). */
  /** The invitation link is unknown. */
  INVITATION_INVALID: "MSG_33010",
  /** The invitation was used already, or cancelled (the member removed since, or a newer link sent). */
  INVITATION_USED: "MSG_33011",
  INVITATION_EXPIRED: "MSG_33012",
  /** The invitation was sent to another email address than the signed-in login's. */
  INVITATION_OTHER_EMAIL: "MSG_33013",
  ALREADY_MEMBER: "MSG_33014",
  /** An invitation may be sent again a minute after the last. */
  INVITATION_RESEND_WAIT: "MSG_33015",
  /** The owner's role is not changed, nor the owner or the account's own login removed, but by a transfer. */
  OWNER_UNCHANGEABLE: "MSG_33016",
  /** No such member (or invitation) in this account. */
  NOT_A_MEMBER: "MSG_33017",
  /** The typed confirmation is not the account's login name. */
  TRANSFER_CONFIRMATION_WRONG: "MSG_33018",
  /** Only an enterprise account has members. */
  TEAM_ENTERPRISE_ONLY: "MSG_33019",
  /**
   * A member whose role lacks "pay" charged the balance above their monthly spending limit (docs/decisions/080);
   * `data.messageParams` has the limit and the month's spend, `data.billId` the bill.
   */
  SPEND_LIMIT_EXCEEDED: "MSG_33030",
  /** The charge above the limit left its bill waiting for a finance member; `data.messageParams.billNo` names it. */
  SENT_TO_FINANCE: "MSG_33031",
  INVALID_LOGIN_NAME: "MSG_20001",
  CAPTCHA_EMPTY: "MSG_20002",
  CAPTCHA_EXPIRED: "MSG_20003",
  CAPTCHA_WRONG: "MSG_20004",
  CAPTCHA_INVALID: "MSG_20005",
  WRONG_CREDENTIALS: "MSG_20006",
  ACCOUNT_LOCKED: "MSG_20007",
  ACCOUNT_NOT_ACTIVATED: "MSG_20008",
  USERNAME_TAKEN: "MSG_20009",
  EMAIL_TAKEN: "MSG_20010",
  ACTIVATION_INVALID: "MSG_20011",
  ALREADY_ACTIVATED: "MSG_20012",
  RESET_CODE_INVALID: "MSG_20013",
  SAME_AS_OLD_PASSWORD: "MSG_20014",
  OLD_PASSWORD_WRONG: "MSG_20015",
  IDE_AUTH_EXPIRED: "MSG_20016",
  /** SPEC §9 resend wait: a reset code was mailed less than 60 seconds ago (HTTP 429). */
  RESEND_WAIT: "MSG_20017",
  FILE_TOO_LARGE: "MSG_20020",
  FILE_TYPE_WRONG: "MSG_20021",
  /** SPEC §8 "Upload failed (reupload)": the upload a call names is unknown, used already or expired. */
  UPLOAD_FAILED: "MSG_20022",
  /* Payments and finance (SPEC §8 Payments, §5 Money). */
  INSUFFICIENT_BALANCE: "MSG_30001",
  DEDUCTION_FAILED: "MSG_30002",
  PAYMENT_FAILED: "MSG_30003",
  CREATION_FAILED: "MSG_30004",
  UNPAID_BILLS: "MSG_30005",
  PUBLISH_PAYMENT_EXPIRED: "MSG_30006",
  AMOUNT_INVALID: "MSG_30007",
  OVER_WITHDRAWABLE: "MSG_30008",
  OVER_INVOICEABLE: "MSG_30009",
  BILL_NOT_PAYABLE: "MSG_30010",
  PAYMENT_NOT_OPEN: "MSG_30011",
  CARD_DECLINED: "MSG_30012",
  ALREADY_REVIEWED: "MSG_30013",
  COMMENTS_REQUIRED: "MSG_30014",
  BILL_NOT_INVOICEABLE: "MSG_30015",
  /* Profile and contacts. */
  CONTACT_LIMIT: "MSG_35001",
  /* Services (SPEC §4 lifecycle; backend/domains/services/machine.ts). */
  SERVICE_ACTION_NOT_AVAILABLE: "MSG_36001",
  SERVICE_ACTION_NOT_ALLOWED: "MSG_36002",
  PUBLISH_PAYMENT_NOT_EXPIRED: "MSG_36003",
  /** A request to lift the operator's suspension (40) is already waiting (docs/decisions/015). */
  ENABLE_ALREADY_REQUESTED: "MSG_36004",
  /** An operator declines a re-enable request that is not (or no longer) pending. */
  NO_ENABLE_REQUEST: "MSG_36005",
  /* Service publish wizard (contract/service-wizard.ts, backend/domains/service-wizard/; MSG_37001-37099). */
  WIZARD_NOT_EDITABLE: "MSG_37001",
  SERVICE_NAME_TAKEN: "MSG_37002",
  VERSION_TAKEN: "MSG_37003",
  PACKAGE_NAME_TAKEN: "MSG_37004",
  FUNC_TAKEN: "MSG_37005",
  ROLE_NAME_TAKEN: "MSG_37006",
  ATTACHMENT_NAME_TAKEN: "MSG_37007",
  PACKAGE_USED_BY_ROLES: "MSG_37008",
  FUNCTION_USED_BY_ROLES: "MSG_37009",
  FUNCTION_HAS_CHILDREN: "MSG_37010",
  FREE_SERVICE_USED: "MSG_37011",
  PACKAGE_REQUIRED: "MSG_37012",
  PACKAGE_WITHOUT_FUNCTIONS: "MSG_37013",
  PACKAGE_WITHOUT_ROLE: "MSG_37014",
  ROLE_REQUIRED: "MSG_37015",
  NODE_REQUIRED: "MSG_37016",
  COVER_DESCRIPTION_REQUIRED: "MSG_37017",
  INSUFFICIENT_RESOURCES: "MSG_37018",
  CERTIFICATE_MODE_REQUIRED: "MSG_37019",
  FUNCTION_REQUIRED: "MSG_37020",
  /** Solidity packages run only on the EVM frameworks (FISCO BCOS, CITA, XuperChain; docs/decisions/034, 052). */
  SOLIDITY_NEEDS_EVM: "MSG_37021",
  /** FISCO BCOS, CITA and XuperChain run Solidity only (docs/decisions/052). */
  EVM_NEEDS_SOLIDITY: "MSG_37022",
  /** Go and Java chaincode need a connected Fabric network (FABRIC_PEER_ENDPOINT; docs/decisions/052). */
  LANGUAGE_NEEDS_FABRIC_NETWORK: "MSG_37023",
  /* Invoices (MSG_34001-MSG_34099; docs/decisions/008). */
  INVOICE_BOOK_FULL: "MSG_34001",
  INVOICE_NOT_APPROVED: "MSG_34002",
  /* Service lifecycle after submission (backend/domains/services/handlers/; docs/decisions/012). */
  REFUND_PENDING: "MSG_38001",
  SERVICE_NOT_RUNNING: "MSG_38002",
  COMMENT_ALREADY_REPLIED: "MSG_38003",
  /* App store (MSG_40001-40099; backend/domains/store/, docs/decisions/014). */
  /** §1/§6: company products need an enterprise account; individuals cannot publish company services. */
  ENTERPRISE_REQUIRED: "MSG_40001",
  /** The product's status does not allow this (§4 Product, contract/store.ts PRODUCT_TRANSITIONS). */
  PRODUCT_ACTION_NOT_ALLOWED: "MSG_40002",
  /** Only participants of the service (participation confirmed) may comment or rate. */
  PARTICIPANTS_ONLY: "MSG_40003",
  /** A comment is marked useful once per user. */
  ALREADY_MARKED_USEFUL: "MSG_40004",
  /** The product is not listed (or no longer). */
  PRODUCT_NOT_LISTED: "MSG_40005",
  /** The service is not in the app store (not running or not public). */
  SERVICE_NOT_LISTED: "MSG_40006",
  /* Participation (MSG_39001-39099; docs/decisions/013). */
  /** §8 "Tokens invalid": a join link with a bad or expired token, or no token for a service that is not public. */
  TOKENS_INVALID: "MSG_39001",
  /** §8 "Public key test failed": the signature of the test data does not verify with the given public key. */
  PUBLIC_KEY_TEST_FAILED: "MSG_39002",
  /** §8 "password error": the certificate password breaks §5 or does not match its confirmation. */
  CERT_PASSWORD_ERROR: "MSG_39003",
  /** The caller already has an open or accepted participation in this service. */
  ALREADY_JOINED: "MSG_39004",
  /** The participation is not in a state where this step applies. */
  JOIN_STEP_NOT_AVAILABLE: "MSG_39005",
  /** This step belongs to another actor (publisher, operator, participant, system). */
  JOIN_STEP_NOT_ALLOWED: "MSG_39006",
  /** A publisher does not join their own service. */
  OWN_SERVICE: "MSG_39007",
  /** Access parameters and certificates are available only once the participation is approved. */
  ACCESS_NOT_AVAILABLE: "MSG_39008",
  /** A participant certificate's private key is handed out once. */
  KEY_ALREADY_DOWNLOADED: "MSG_39009",
  /** The participant is already disabled. */
  ALREADY_DISABLED: "MSG_39010",
  /* Payments (MSG_33001-33099, docs/decisions/007). */
  /** A payment provider callback whose signature or timestamp does not verify: refused, nothing changes. */
  CALLBACK_REJECTED: "MSG_33001",
  /* Bills (MSG_31001-MSG_31099). */
  /** An idempotency key already used for another operation. */
  IDEMPOTENCY_KEY_REUSED: "MSG_31001",
  /* Operations (MSG_41001-41099; docs/decisions/005). */
  /** An operator retries a job that is not (or no longer) in the failed list. */
  JOB_NOT_FAILED: "MSG_41001",
  /* Operators' second factor (MSG_21001-21099, docs/decisions/022). */
  /** Session invalid (code 3): an operator's token that has not passed the second factor yet. */
  SECOND_FACTOR_REQUIRED: "MSG_21001",
  /** The authentication code or recovery code is wrong (or expired). */
  SECOND_FACTOR_WRONG: "MSG_21002",
  /** The code was already used: a code opens one login; wait for the next one. */
  SECOND_FACTOR_REUSED: "MSG_21003",
  /** Too many wrong codes: the second factor is refused for a while. */
  SECOND_FACTOR_LOCKED: "MSG_21004",
  /** Enrolment asked for by an operator who is already enrolled. */
  SECOND_FACTOR_ENROLLED: "MSG_21005",
  /** A code asked for before the operator has enrolled. */
  SECOND_FACTOR_NOT_ENROLLED: "MSG_21006",
  /* Public chain (MSG_42001-42099; backend/domains/public-chain/, docs/decisions/026). */
  /** §8 "Failed to get public chain list". */
  PUBLIC_CHAIN_LIST_FAILED: "MSG_42001",
  /** §8 "Already have a plan on this node". */
  PLAN_ALREADY_ON_NODE: "MSG_42002",
  /** §8 "Plan deactivated": a deactivated (or expired) plan allows no new project. */
  PLAN_DEACTIVATED: "MSG_42003",
  /** §8 "Project limit reached": the plan's project maximum. */
  PROJECT_LIMIT_REACHED: "MSG_42004",
  /** §8 "Daily requests out of range" of the plan. */
  DAILY_REQUESTS_OUT_OF_RANGE: "MSG_42005",
  /** §8 duplicate project name (per user). */
  PROJECT_NAME_TAKEN: "MSG_42006",
  /** §8 duplicate chain account name. */
  CHAIN_ACCOUNT_NAME_TAKEN: "MSG_42007",
  /** §8 duplicate chain account address. */
  CHAIN_ACCOUNT_ADDRESS_TAKEN: "MSG_42008",
  /** §8 "Bad chain address" (or a public key that gives none). */
  BAD_CHAIN_ADDRESS: "MSG_42009",
  /** §8 "Chain account gas is 0". */
  GAS_ZERO: "MSG_42010",
  /** The project's status does not allow this move (machine.ts). */
  PROJECT_ACTION_NOT_AVAILABLE: "MSG_42011",
  /** The project has no key yet (its deployment has not finished). */
  PROJECT_KEY_NOT_READY: "MSG_42012",
  /** A keystore exists only for custody accounts (key type 1). */
  NOT_CUSTODY_ACCOUNT: "MSG_42013",
  /** The gas transfer on the chain failed: the bill was refunded. */
  GAS_TRANSFER_FAILED: "MSG_42014",
  /** The node sells no plan now. */
  PLAN_NOT_FOR_SALE: "MSG_42015",
  /* Configuration upgrades, renewals and prices (MSG_44001-44099; docs/decisions/036). */
  /** §8 "Config upgrade not allowed within 5 days of cycle end". */
  UPGRADE_CYCLE_END: "MSG_44001",
  /** §8 "Upgrade blocked while one is in progress". */
  UPGRADE_IN_PROGRESS: "MSG_44002",
  /** §8 config upgrade "repeated within 6 hours". */
  UPGRADE_COOLDOWN: "MSG_44003",
  /** The requested configuration is the one the service has. */
  UPGRADE_NO_CHANGE: "MSG_44004",
  /** The change does not match the upgrade type (nodes for a node upgrade, resources for a resource upgrade). */
  UPGRADE_TYPE_MISMATCH: "MSG_44005",
  /** The service's status or plan does not allow a config upgrade (§4). */
  UPGRADE_NOT_AVAILABLE: "MSG_44006",
  /** The upgrade's bill cannot be paid now (not approved, already paid, or past its deadline). */
  UPGRADE_NOT_PAYABLE: "MSG_44007",
  /** A city node that is not in the catalogue. */
  UPGRADE_UNKNOWN_NODE: "MSG_44008",
  /** A price area, item or field that does not exist. */
  PRICE_ITEM_UNKNOWN: "MSG_44009",
  /** The chain did not answer (its balance could not be read); nothing was done. */
  CHAIN_UNAVAILABLE: "MSG_42016",
  /* IPFS storage (MSG_45001-45099; backend/domains/ipfs/, docs/decisions/039). */
  /** A capacity (storeUnit) that selectCapacity does not offer. */
  IPFS_CAPACITY_UNKNOWN: "MSG_45001",
  /** A gateway (orgId) that selectIpfsOrgFlowPrices does not offer. */
  IPFS_GATEWAY_UNKNOWN: "MSG_45002",
  /** Duplicate IPFS service name (per user). */
  IPFS_NAME_TAKEN: "MSG_45003",
  /** The service is not running (unsubscribed): its keys cannot change. */
  IPFS_SERVICE_NOT_RUNNING: "MSG_45004",
  /** Gateway upload: the file does not fit in the service's free capacity. */
  IPFS_OVER_CAPACITY: "MSG_45005",
  /** Gateway: no key, or a key that is not this kind's. */
  IPFS_KEY_UNKNOWN: "MSG_45006",
  /** Gateway: the key is deactivated (§4 state 0) or unsubscribed (2). */
  IPFS_KEY_DEACTIVATED: "MSG_45007",
  /** Gateway: the service does not use this city node's gateway. */
  IPFS_NOT_THIS_GATEWAY: "MSG_45008",
  /** Gateway: the IPFS engine failed; nothing was stored. */
  IPFS_ENGINE_FAILED: "MSG_45009",
  /** Capacity upgrade: the capacity chosen is not larger than the service's current one. */
  IPFS_UPGRADE_NOT_LARGER: "MSG_45010",
  /** Capacity upgrade: the service already has an upgrade pending or being processed. */
  IPFS_UPGRADE_OPEN: "MSG_45011",
  /** Capacity upgrade: the upgrade is not in a status that allows this move (already taken or decided). */
  IPFS_UPGRADE_NOT_AVAILABLE: "MSG_45012",
  /** Capacity upgrade: refusing an upgrade needs a reason. */
  IPFS_UPGRADE_REASON_REQUIRED: "MSG_45013",
  /** The IPFS node (IPFS_API_URL) is not answering: nothing was stored or read (HTTP 503; docs/decisions/076). */
  IPFS_UNAVAILABLE: "MSG_45014",
  /* The DID service (MSG_47001-47099; backend/domains/did/, docs/decisions/043). */
  /** A pasted public key that is neither an Ed25519 nor a secp256k1 public key (JWK or multibase). */
  DID_KEY_INVALID: "MSG_47001",
  /** A pasted key holds a private part: only the public key may be given. */
  DID_PRIVATE_KEY_GIVEN: "MSG_47002",
  /** The issuing DID's key is held by its user, not by the portal: the portal cannot sign with it. */
  DID_NOT_PORTAL_HELD: "MSG_47003",
  /** The "enterprise certified" credential is issued only to certified enterprise accounts. */
  DID_NOT_CERTIFIED: "MSG_47004",
  /** The subject DID is a DID of another account of this portal than the participant's. */
  DID_SUBJECT_OTHER_USER: "MSG_47005",
  /** The credential is already revoked. */
  DID_ALREADY_REVOKED: "MSG_47006",
  /** Verify: give a credential (paste it or upload a file). */
  DID_NOTHING_TO_VERIFY: "MSG_47007",
  /** This DID already exists (the same key as a did:key already made). */
  DID_EXISTS: "MSG_47008",
  /* Contract deployment (MSG_42100-42199; backend/domains/contracts/, docs/decisions/033). */
  /** §5 Contract name: no leading or trailing spaces. */
  CONTRACT_NAME_SPACES: "MSG_42101",
  /** §4 Only one deployment at a time per project. */
  CONTRACT_DEPLOYMENT_UNDER_WAY: "MSG_42102",
  /** §4 A contract being deployed blocks edits. */
  CONTRACT_BEING_DEPLOYED: "MSG_42103",
  /** The contract is not deployed (yet, or it failed): nothing to call or read. */
  CONTRACT_NOT_DEPLOYED: "MSG_42104",
  /** No read function (view or pure) of that name in the ABI. */
  CONTRACT_NO_SUCH_FUNCTION: "MSG_42105",
  /** The arguments do not fit the function's parameters. */
  CONTRACT_BAD_ARGUMENTS: "MSG_42106",
  /** The call reverted (its reason in data.reason). */
  CONTRACT_CALL_REVERTED: "MSG_42107",
  /** The project cannot deploy contracts in its status (not deployed yet, failed, or deactivated). */
  CONTRACT_PROJECT_NOT_READY: "MSG_42108",
  /** Contracts deploy from custody accounts only (the server holds no other key). */
  CONTRACT_ACCOUNT_NOT_CUSTODY: "MSG_42109",
  /** The ABI is not a JSON array of ABI entries. */
  CONTRACT_BAD_ABI: "MSG_42110",
  /** The status does not allow this action (only a failed deployment is redeployed). */
  CONTRACT_ACTION_NOT_AVAILABLE: "MSG_42111",
  /* Test services (MSG_43001-43199; backend/domains/test-services/, docs/decisions/034). */
  /** The test service's status does not allow this action (machine.ts). */
  TEST_SERVICE_ACTION_NOT_AVAILABLE: "MSG_43001",
  /** A test service of this name and version exists already (per user). */
  TEST_SERVICE_NAME_TAKEN: "MSG_43002",
  /** Source from a package: the package has no .sol file, or is not a readable zip. */
  TEST_SERVICE_PACKAGE_INVALID: "MSG_43003",
  /** Neither typed source nor a package was given. */
  TEST_SERVICE_SOURCE_REQUIRED: "MSG_43004",
  /** A Fabric test service's package is not a Node.js chaincode the embedded peer takes (docs/decisions/069). */
  TEST_SERVICE_CHAINCODE_INVALID: "MSG_43005",
  /** The test network runs on a node by URL (CHAIN_NODES, docs/decisions/094): the portal cannot start it afresh. */
  TEST_NETWORK_EXTERNAL: "MSG_43006",
  /* DDC certificates and account binding (MSG_47201-47299; backend/domains/ddc/, docs/decisions/045). */
  /** DDCs are minted from custody accounts only (the server holds no other key). */
  DDC_ACCOUNT_NOT_CUSTODY: "MSG_47201",
  /** The project cannot mint in its status (not deployed yet, failed, or deactivated). */
  DDC_PROJECT_NOT_READY: "MSG_47202",
  /** The chain refused the mint or transfer (its reason in data.reason); nothing was billed. */
  DDC_CHAIN_REFUSED: "MSG_47203",
  /** None of the user's custody accounts holds the DDC on chain: it cannot be transferred from here. */
  DDC_NOT_HELD: "MSG_47204",
  /** The DDC is not minted (minting or failed). */
  DDC_NOT_MINTED: "MSG_47205",
  /** The recipient is not a valid address (or is the current holder). */
  DDC_BAD_RECIPIENT: "MSG_47206",
  /** The QR-code password is wrong. */
  DDC_PASSWORD_WRONG: "MSG_47207",
  /** The chosen IPFS service is not the user's running service, or the file does not fit its free capacity. */
  DDC_IPFS_UNAVAILABLE: "MSG_47208",
  /** The signed message is not the challenge the server issued (altered, or for another address or site). */
  BINDING_MESSAGE_ALTERED: "MSG_47211",
  /** The challenge is unknown, used already or expired: ask for a new one. */
  BINDING_CHALLENGE_USED: "MSG_47212",
  /** The signature does not verify for the message and address. */
  BINDING_BAD_SIGNATURE: "MSG_47213",
  /** The address is bound to another account already. */
  BINDING_ADDRESS_TAKEN: "MSG_47214",
  /** A transfer was sent but the chain has not confirmed it in time: it is finished, or refunded, automatically (MSG_47215-47229). */
  DDC_TRANSFER_PENDING: "MSG_47215",
  /* The developer community's content (MSG_46001-46099; backend/domains/community/, docs/decisions/040). */
  /** Sign-up: the event's sign-up deadline has passed (or the event has started). */
  COMMUNITY_SIGNUP_CLOSED: "MSG_46001",
  /** Sign-up: every seat of the event is taken. */
  COMMUNITY_EVENT_FULL: "MSG_46002",
  /** Sign-up: the caller has signed up for this event already. */
  COMMUNITY_ALREADY_SIGNED_UP: "MSG_46003",
  /** Operations: the capacity may not be lowered below the sign-ups already taken. */
  COMMUNITY_CAPACITY_BELOW_SIGNUPS: "MSG_46004",
  /** Operations: a post keeps its kind when edited. */
  COMMUNITY_KIND_CHANGED: "MSG_46005",
  /** Operations: the logo is not an image upload of the caller (png or jpeg, at most 5 MB). */
  COMMUNITY_LOGO_INVALID: "MSG_46006",
  /* The online IDE (MSG_47101-47199; backend/domains/ide/, docs/decisions/044). §8 IDE_AUTH_EXPIRED is MSG_20016. */
  /** The contract named is not among the workspace's last successful compilation: compile first. */
  IDE_NOT_COMPILED: "MSG_47101",
  /** A file or folder of that path exists in the workspace already. */
  IDE_PATH_TAKEN: "MSG_47102",
  /** A folder has no content: only files are saved. */
  IDE_NOT_A_FILE: "MSG_47103",
  /** A write function is signed by one of the project's custody accounts: choose one. */
  IDE_ACCOUNT_REQUIRED: "MSG_47104",
  /** No template of that id. */
  IDE_TEMPLATE_UNKNOWN: "MSG_47105",
  /** The workspace holds as many files as it may (IDE_FILES_MAX). */
  IDE_TOO_MANY_FILES: "MSG_47106",
  /** A file cannot be moved into itself or under a file. */
  IDE_BAD_PARENT: "MSG_47107",
  /* Technical support and the newsletter (MSG_46101-46199; backend/domains/support/, docs/decisions/041). */
  /** The ticket's status does not allow this (a closed ticket takes no reply: open a new one). */
  TICKET_NOT_AVAILABLE: "MSG_46101",
  /** A confirmation mail went out less than 60 seconds ago (SPEC §9; the wait in data.retryAfterSeconds). */
  NEWSLETTER_RESEND_WAIT: "MSG_46102",
  /** The confirmation or unsubscribe link is unknown, used or expired. */
  NEWSLETTER_LINK_INVALID: "MSG_46103",
  /** No confirmed subscriber to send the issue to. */
  NEWSLETTER_NO_SUBSCRIBERS: "MSG_46104",
  /* Documentation and chaincode market (MSG_46201-46299; backend/domains/docs/, backend/domains/market/, docs/decisions/042). */
  /** Another manual page has this slug. */
  DOC_SLUG_TAKEN: "MSG_46201",
  /** The parent is unknown, the page itself or one of its sub-pages. */
  DOC_PARENT_INVALID: "MSG_46202",
  /** A page with sub-pages is not deleted: move or delete them first. */
  DOC_HAS_CHILDREN: "MSG_46203",
  /** Another market entry has this package name. */
  MARKET_NAME_TAKEN: "MSG_46204",
  /** The market zip fails the service test job's inspection (its findings in data.findings). */
  MARKET_PACKAGE_INVALID: "MSG_46205",
  /** A new market entry needs its zip. */
  MARKET_FILE_REQUIRED: "MSG_46206",
  /** The market entry is withdrawn: it cannot be downloaded or used in a service. */
  MARKET_WITHDRAWN: "MSG_46207",
  /** The caller has a deployment to the test network under way: one at a time (docs/decisions/044 addendum). */
  IDE_TEST_DEPLOY_UNDER_WAY: "MSG_47108",
  /* Cross-chain services (MSG_48101-48199; backend/domains/cross-chain/, docs/decisions/048). */
  /** The service is not running (verState 25), or not the caller's. */
  XC_SERVICE_NOT_RUNNING: "MSG_48101",
  /** §5 "Cannot be opened during a service or configuration upgrade". */
  XC_UPGRADING: "MSG_48102",
  /** §8 "Nodes do not support the chosen interchain protocol". */
  XC_PROTOCOL_UNSUPPORTED: "MSG_48103",
  /** §5 "An unpaid cross-chain bill blocks activation". */
  XC_UNPAID_BILL: "MSG_48104",
  /** The service runs on no chain of its own (Fabric, XuperChain, or no Solidity package; docs/decisions/038). */
  XC_NO_CHAIN: "MSG_48105",
  /** The cross-chain status does not allow this move (already open, pending, closed...). */
  XC_NOT_AVAILABLE: "MSG_48106",
  /** §5 "Cannot be stopped while enabled": deactivate cross-chain first (the service's own deactivation). */
  XC_STOP_WHILE_ENABLED: "MSG_48107",
  /** §5 "Cannot unsubscribe while upgrading". */
  XC_CLOSE_UPGRADING: "MSG_48108",
  /** §8 "Cross-chaining in progress, cannot upgrade" (crossStatus 3 or 4). */
  XC_UPGRADE_CROSSING: "MSG_48109",
  /** The target chain is not one this service may send to. */
  XC_TARGET_UNKNOWN: "MSG_48110",
  /** Messages are sent only while cross-chain is activated (1). */
  XC_NOT_ACTIVATED: "MSG_48111",
  /** The NFT and deposit samples belong to the second protocol. */
  XC_SAMPLE_PROTOCOL: "MSG_48112",
  /** The chain refused the message (its reason in data.reason). */
  XC_SEND_FAILED: "MSG_48113",
  /** The protocol's contracts could not be deployed on a chain involved (the reason in data.reason). */
  XC_DEPLOY_FAILED: "MSG_48114",
  /* Dedicated nodes (MSG_48001-48099; backend/domains/dedicated-nodes/, docs/decisions/047). */
  /** Another dedicated node project has this name (names are unique: the network is named after it). */
  PRN_NAME_TAKEN: "MSG_48001",
  /** The consensus is not one of the chosen framework's. */
  PRN_CONSENSUS_INVALID: "MSG_48002",
  /** The cloud and region are not a city node of the catalogue. */
  PRN_REGION_UNKNOWN: "MSG_48003",
  /** The project's status does not allow this action (SPEC §4 dedicated node service). */
  PRN_NOT_ALLOWED_IN_STATUS: "MSG_48004",
  /** The project already has an upgrade being applied: one at a time. */
  PRN_UPGRADE_OPEN: "MSG_48005",
  /** The upgrade chooses the value the project already has. */
  PRN_UPGRADE_NO_CHANGE: "MSG_48006",
  /** The data capacity chosen is below what the nodes already use. */
  PRN_CAPACITY_BELOW_USED: "MSG_48007",
  /** Peers are only added: a network's node count does not go down. */
  PRN_PEERS_DECREASE: "MSG_48008",
  /** The paid period has ended: nothing is upgraded until the renewal is paid. */
  PRN_PERIOD_ENDED: "MSG_48009",
  /** The new passwords do not match. */
  PRN_PASSWORD_MISMATCH: "MSG_48010",
  /** The network did not answer (its provisioner failed); nothing was changed. */
  PRN_NETWORK_FAILED: "MSG_48011",
  /* Enterprise certification (MSG_49001-49099; backend/domains/accounts/certification.ts, docs/decisions/071). */
  /** The enterprise's certification is not approved yet (pending review or rejected): company features wait. */
  CERT_NOT_APPROVED: "MSG_49001",
  /** The certification is not in a state this step applies to (already pending, approved, or decided). */
  CERT_NOT_AVAILABLE: "MSG_49002",
  /** Only enterprise accounts are certified. */
  CERT_ENTERPRISE_ONLY: "MSG_49003",
  /** SPEC §8 "Status error": a decision's status is none of its valid values (1 approved, 2 unapproved). */
  STATUS_ERROR: "MSG_10422",
  /** Silent notice (SPEC §8): the portal shows nothing for it. */
  SILENT: "MSG_32029",
} as const;
export type MsgKey = (typeof Msg)[keyof typeof Msg];

/** SPEC §8: these keys (or code 3) mean the session is invalid. */
export const SESSION_INVALID_KEYS: readonly string[] = [
  Msg.PLEASE_LOGIN,
  Msg.LOGIN_TIMEOUT,
  Msg.SESSION_ENDED,
  Msg.SECOND_FACTOR_REQUIRED,
];
