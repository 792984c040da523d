/**
 * The customization settings a published site reports (published spec `SiteCustomizationSettings`).
 * docsync has no customization API yet, so every site has these defaults: the hosted platform's
 * own defaults for a new site, and they are what the web pages render with.
 */
export const DEFAULT_SITE_CUSTOMIZATION = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: true },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: ['markdown', 'pdf'] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
} as const;
