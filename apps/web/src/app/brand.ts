/** Brand values shared by the theme, the web app manifest and the icons. */
export const brand = {
  name: 'Parley',
  description: 'Business text messaging for your team.',
  primary: '#2457c5',
  background: '#f5f7fb',
} as const;
