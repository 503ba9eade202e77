/** Where the answer to the age question (P-19) is kept in the browser. */
export const AGE_GATE_STORAGE_KEY = "capital-grown-age-verified";
