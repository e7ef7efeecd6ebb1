/** The URLs of the DDC pages. */

export const DDC_HOME = "/g/home/DDC";

export const ddcDetailHref = (ddcId: number) => `${DDC_HOME}/Detail?ddcId=${ddcId}`;
