/** Complete basic information of a new service named `name` (step 1 of the wizard), monthly. */
export function wizardBasic(name: string) {
  return {
    name,
    industry: "finance",
    description: "Trade finance on a consortium chain.",
    introduction: "Banks share letters of credit.",
    version: "1.0.0",
    framework: "fabric",
    platformType: "web",
    contactName: "Li Lei",
    contactMobile: "+8613912345678",
    contactEmail: "li@example.com",
    webUrl: "https://example.com",
    paymentCycle: "2",
  };
}
