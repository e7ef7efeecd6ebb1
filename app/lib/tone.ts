/** How a status reads at a glance: done, waiting, failed or refused, moved on, or closed (the colour of its Badge). */
export type Tone = "ok" | "wait" | "bad" | "info" | "off";
