/** The shape of a sign-in link's token (`sil_` and 40 base62 characters). Pure: the console imports it. */
export const SIGN_IN_TOKEN_PATTERN = /^sil_[0-9A-Za-z]{40}$/;

/** How long an emailed sign-in link works. */
export const SIGN_IN_LINK_MINUTES = 15;
