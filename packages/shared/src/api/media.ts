// Media uploads and serving (spec: Media; §7.3 tools/sharefile). Filled in with the media routes.
export {};
