// Security headers of the pages vjd serves to browsers (the control page and the API docs), kept in one place so
// every page gets the same framing, sniffing and base-URI rules.

/** Directives every page shares: nothing may frame a page (clickjacking) or re-point its relative URLs. */
const COMMON = "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/**
 * A Content-Security-Policy: scripts, styles and fetches from this server only, plus the page's own extras.
 * `style-src 'unsafe-inline'` is for style attributes set by script (both pages set them); no inline scripts run.
 */
export function pagePolicy(img: string): string {
  return `default-src 'self'; script-src 'self'; img-src 'self' ${img}; style-src 'self' 'unsafe-inline'; connect-src 'self'; ${COMMON}`;
}

/** The headers of an HTML page; files a page loads get `ASSET_HEADERS` only. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

/** Scripts, styles and images of a page: never sniffed as another type. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };
