/** A host configuration code ("c2m4") as its vCPUs and GB of memory; null for any other text. */
export function hostOf(code: string): { cpu: number; memoryGb: number } | null {
  const m = /^c(\d+)m(\d+)$/.exec(code);
  return m ? { cpu: Number(m[1]), memoryGb: Number(m[2]) } : null;
}
