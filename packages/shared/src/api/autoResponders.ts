// Auto responders (spec: Auto responder; §7.4). Filled in with the auto responders routes.
export {};
