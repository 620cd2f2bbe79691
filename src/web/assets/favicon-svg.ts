/** The website's icon (served as /assets/favicon-<hash>.svg and at /favicon.ico): a beacon's light. */
export const FAVICON_SVG = `
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/><circle cx="16" cy="16" r="5.5" fill="#fff"/><path d="M16 3.5v4.5M16 24v4.5M3.5 16H8M24 16h4.5M7.2 7.2l3.1 3.1M21.7 21.7l3.1 3.1M7.2 24.8l3.1-3.1M21.7 10.3l3.1-3.1" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>
`;
