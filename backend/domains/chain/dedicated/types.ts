/**
 * The provisioner's interface (docs/decisions/046): what the dedicated-nodes domain asks of a dedicated
 * network. The embedded provisioner (this folder) runs every network in a worker thread of this server; a
 * production provisioner (Kubernetes with besu/geth nodes and a CA service) answers the same calls.
 */

/** SPEC §4 node component types: 1 peer, 2 gateway, 3 orderer, 4 CA. */
export type NetworkNodeType = 1 | 2 | 3 | 4;

/**
 * What each node of a network enforces (docs/decisions/074): JSON-RPC calls per second (counted over a window)
 * and the stored bytes above which transactions are refused. A network deployed without limits has none.
 */
export type NodeLimits = { requestsPerSecond: number; storageBytes: number };

export type NetworkNode = {
  /** "orderer", "peer-1", "peer-2", …, "gateway", "ca". */
  name: string;
  type: NetworkNodeType;
  status: "starting" | "running" | "syncing" | "stopped" | "failed";
  /** A path on this site: gateway "/chain/dedicated/<network>", a node "/chain/dedicated/<network>/nodes/<name>", CA "/chain/dedicated/<network>/ca". */
  endpoint: string;
  /** Block height (orderer, peers; the gateway shows the orderer's; CA null). */
  height: number | null;
  /** Peers: orderer height − own height; others null. */
  lag: number | null;
  /** Requests this node served in the last 60 s. */
  requestsPerMinute: number;
  /** Bytes on disk of this node's state. */
  bytesUsed: number;
  /** What this node enforces now (orderer, peers, gateway); null: no limits (the CA, or a network without them). */
  limits: NodeLimits | null;
  /** Issued by the network's CA. */
  certificate: { subject: string; serial: string; notAfter: string; fingerprint: string } | null;
};

export type NetworkStatus = {
  name: string;
  chainId: number;
  state: "running" | "stopped";
  consensus: string;
  peers: number;
  /** The limits every node enforces; null when the network has none. */
  limits: NodeLimits | null;
  nodes: NetworkNode[];
  caCertificatePem: string;
};

export type NetworkCredentials = { user: string; password: string };

export type DeployInput = {
  name: string;
  peers: number;
  consensus: string;
  user: string;
  password: string;
  /** Applied to every node (a deploy called again sets them too); none: no limits. */
  limits?: NodeLimits | null;
};

/** An answer of the HTTP gateway: its status and JSON body. */
export type GatewayAnswer = { status: number; body: unknown };

/** One HTTP request to a network's endpoints, as the endpoint (or a peer process) hands it over. */
export type GatewayRequest = {
  network: string;
  target: "gateway" | "ca" | { node: string };
  method: string;
  authorization: string | null;
  body: string;
};
/** The answer: a status and a JSON body, or the CA's PEM; headers to add (WWW-Authenticate). */
export type GatewayReply = { status: number; body: unknown; pem?: string; headers?: Record<string, string> };
