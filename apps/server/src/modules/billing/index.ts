export { loadAccount, type AccountWithPlan } from './accountPlan.js';
export { creditAccount, debitAccount, InsufficientBalanceError, refundAccount } from './ledger.js';
export { seedPlans, TRIAL_PLAN_ID } from './plans.js';
export { chargeRoutes } from './routes/charges.js';
export { sandboxTopup } from './sandboxTopup.js';
export { topupRoutes } from './routes/topup.js';
