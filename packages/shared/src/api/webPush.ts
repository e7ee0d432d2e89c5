// Web push registration (spec §7.1 webpush/register). Filled in with the web push routes.
export {};
