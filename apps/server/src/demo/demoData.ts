import type { SaveAutoResponderInput, SaveTemplateInput } from '@parley/shared';

/*
 * What `parley seed-demo` puts in an account: a small specialty coffee roaster that ships to customers in
 * the United States, Canada, the United Kingdom and Australia. Every number is one the numbering
 * authorities keep for fiction (NANPA's 555-01xx, Ofcom's drama ranges, ACMA's 5550 and 7010 ranges), valid
 * for libphonenumber, and outside the simulator's inventory (modules/carriers/simulator/inventory.ts sells 555-01xx
 * only in its own area codes, and only the first hundred of each Ofcom block): the demo's phones can never
 * be numbers an account buys, nor anybody's phone.
 */

export type DemoCountry = 'US' | 'CA' | 'GB' | 'AU';

export interface DemoContact {
  /** How the scripts below name the contact. */
  key: string;
  firstName: string;
  lastName: string;
  number: string;
  country: DemoCountry;
  email: string;
  tags: string[];
  attributes: Record<string, string>;
}

/** A system tag (hidden in the app) on every demo contact: the operator finds, and may remove, what the demo added. */
export const DEMO_TAG = '_demo';

type Row = [key: string, first: string, last: string, number: string, tags: string, city: string, roast: string, plan: string, lastOrder: string];

const rows: Record<DemoCountry, Row[]> = {
  US: [
    ['maya', 'Maya', 'Thompson', '+13105550110', 'customer subscriber newsletter', 'Los Angeles', 'Ethiopia Guji', 'Monthly 2 bags', '2026-03-02'],
    ['jordan', 'Jordan', 'Rivera', '+13235550115', 'customer', 'Los Angeles', 'House Espresso', '', '2026-02-11'],
    ['priya', 'Priya', 'Patel', '+14075550120', 'customer subscriber vip newsletter', 'Orlando', 'Colombia Huila', 'Fortnightly 1 bag', '2026-03-09'],
    ['marcus', 'Marcus', 'Johnson', '+14805550125', 'customer espresso', 'Phoenix', 'House Espresso', '', '2026-01-27'],
    ['emily', 'Emily', 'Chen', '+15415550130', 'customer subscriber', 'Eugene', 'Kenya Nyeri', 'Monthly 1 bag', '2026-03-04'],
    ['daniel', 'Daniel', 'Kim', '+16125550135', 'customer newsletter', 'Minneapolis', 'Guatemala Huehuetenango', '', '2025-12-18'],
    ['sofia', 'Sofia', 'Martinez', '+16145550140', 'customer subscriber vip', 'Columbus', 'Ethiopia Guji', 'Weekly 1 bag', '2026-03-10'],
    ['tyler', 'Tyler', 'Brooks', '+17205550145', 'customer', 'Denver', 'Decaf Swiss Water', '', '2025-11-30'],
    ['aisha', 'Aisha', 'Williams', '+17735550150', 'customer newsletter', 'Chicago', 'Colombia Huila', '', '2026-02-20'],
    ['ryan', 'Ryan', "O'Connor", '+17865550155', 'lead', 'Miami', '', '', ''],
    ['grace', 'Grace', 'Nguyen', '+18165550160', 'customer subscriber', 'Kansas City', 'Brazil Cerrado', 'Monthly 2 bags', '2026-03-01'],
    ['ethan', 'Ethan', 'Walker', '+18585550165', 'customer espresso newsletter', 'San Diego', 'House Espresso', '', '2026-02-25'],
    ['olivia', 'Olivia', 'Garcia', '+19495550170', 'customer', 'Irvine', 'Kenya Nyeri', '', '2026-01-14'],
    ['noah', 'Noah', 'Bennett', '+19715550175', 'lead wholesale', 'Portland', '', '', ''],
    ['chloe', 'Chloe', 'Adams', '+13135550180', 'customer subscriber newsletter', 'Detroit', 'Colombia Huila', 'Fortnightly 1 bag', '2026-03-06'],
    ['luis', 'Luis', 'Hernandez', '+12145550185', 'customer wholesale vip', 'Dallas', 'House Espresso', '', '2026-03-08'],
  ],
  CA: [
    ['liam', 'Liam', 'Tremblay', '+12505550120', 'customer subscriber', 'Victoria', 'Ethiopia Guji', 'Monthly 1 bag', '2026-02-28'],
    ['isabelle', 'Isabelle', 'Côté', '+13065550127', 'customer newsletter', 'Saskatoon', 'Brazil Cerrado', '', '2026-01-30'],
    ['hannah', 'Hannah', 'Li', '+15195550134', 'customer', 'London', 'Kenya Nyeri', '', '2026-02-16'],
    ['mason', 'Mason', 'Campbell', '+16475550141', 'customer subscriber vip', 'Toronto', 'House Espresso', 'Weekly 1 bag', '2026-03-09'],
    ['zoe', 'Zoe', 'Fraser', '+17055550148', 'customer', 'Barrie', 'Decaf Swiss Water', '', '2025-12-05'],
    ['arjun', 'Arjun', 'Singh', '+17785550155', 'customer espresso newsletter', 'Vancouver', 'Colombia Huila', '', '2026-02-22'],
    ['emma', 'Emma', 'Roy', '+19055550162', 'lead', 'Hamilton', '', '', ''],
    ['nathan', 'Nathan', 'Boucher', '+15875550169', 'customer subscriber', 'Calgary', 'Guatemala Huehuetenango', 'Monthly 2 bags', '2026-03-03'],
  ],
  GB: [
    ['oliver', 'Oliver', 'Hughes', '+442079460312', 'customer subscriber', 'London', 'Ethiopia Guji', 'Monthly 1 bag', '2026-03-05'],
    ['amelia', 'Amelia', 'Clarke', '+441134960541', 'customer newsletter', 'Leeds', 'Kenya Nyeri', '', '2026-02-12'],
    ['harry', 'Harry', 'Evans', '+441214960877', 'customer espresso', 'Birmingham', 'House Espresso', '', '2026-01-21'],
    ['isla', 'Isla', 'Murray', '+441614960193', 'customer subscriber vip newsletter', 'Manchester', 'Colombia Huila', 'Fortnightly 1 bag', '2026-03-07'],
    ['george', 'George', 'Shaw', '+441314960426', 'lead', 'Edinburgh', '', '', ''],
    ['poppy', 'Poppy', 'Robertson', '+441414960658', 'customer', 'Glasgow', 'Brazil Cerrado', '', '2026-02-03'],
    ['rohan', 'Rohan', 'Mehta', '+442890180734', 'customer newsletter', 'Belfast', 'Guatemala Huehuetenango', '', '2026-02-27'],
    ['freya', 'Freya', 'Jones', '+442920180915', 'customer subscriber', 'Cardiff', 'Decaf Swiss Water', 'Monthly 1 bag', '2026-03-02'],
  ],
  AU: [
    ['jack', 'Jack', 'Mitchell', '+61255504217', 'lead', 'Sydney', '', '', ''],
    ['charlotte', 'Charlotte', 'Tran', '+61355508831', 'customer subscriber newsletter', 'Melbourne', 'Ethiopia Guji', 'Monthly 2 bags', '2026-03-04'],
    ['william', 'William', 'Harris', '+61755502690', 'customer espresso', 'Brisbane', 'House Espresso', '', '2026-02-19'],
    ['matilda', 'Matilda', "O'Brien", '+61855501148', 'customer', 'Adelaide', 'Kenya Nyeri', '', '2026-01-09'],
    ['lachlan', 'Lachlan', 'Scott', '+61270103325', 'customer wholesale', 'Newcastle', 'House Espresso', '', '2026-03-06'],
    ['ruby', 'Ruby', 'Taylor', '+61370109572', 'customer subscriber vip', 'Geelong', 'Colombia Huila', 'Weekly 1 bag', '2026-03-10'],
    ['cooper', 'Cooper', 'Reid', '+61770104460', 'customer newsletter', 'Gold Coast', 'Brazil Cerrado', '', '2026-02-08'],
    ['sienna', 'Sienna', 'Walsh', '+61870107781', 'customer', 'Perth', 'Guatemala Huehuetenango', '', '2026-02-14'],
  ],
};

const emailOf = (first: string, last: string): string =>
  `${first}.${last}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase()
    .concat('@example.com');

function contactOf(country: DemoCountry, [key, first, last, number, tags, city, roast, plan, lastOrder]: Row): DemoContact {
  const attributes: Record<string, string> = { city };
  if (roast !== '') attributes.favouriteRoast = roast;
  if (plan !== '') attributes.subscription = plan;
  if (lastOrder !== '') attributes.lastOrder = lastOrder;
  return { key, firstName: first, lastName: last, number, country, email: emailOf(first, last), tags: [...tags.split(' '), DEMO_TAG], attributes };
}

export const demoContacts: readonly DemoContact[] = (Object.keys(rows) as DemoCountry[]).flatMap((country) =>
  rows[country].map((row) => contactOf(country, row)),
);

/** A phone that is not a contact yet: it texts spam and is blocked. */
export const demoSpamPhone = { number: '+12175550199', text: 'CONGRATS! You won a $500 gift card. Claim now at bit.ly/claim-gift-500' };

/** The contact who opts out (STOP) before the campaign, so the campaign leaves them out. */
export const demoOptOutKey = 'tyler';

export const demoList = { name: 'Coffee Club newsletter', tag: 'newsletter', consentSource: 'checkout opt-in' };

/** Two groups: the number's conversations go to the first; the second is the administrators'. */
export const demoGroups = [
  { name: 'Customer Care', tags: ['customer'], holdsNumber: true, members: 'everyone' },
  { name: 'Wholesale', tags: ['wholesale'], holdsNumber: false, members: 'administrators' },
] as const;

export const demoTemplates: readonly SaveTemplateInput[] = [
  { name: 'Order shipped', type: 'SMS', template: 'Hi {{{firstName}}}, your coffee was roasted this morning and is on its way. Enjoy!' },
  {
    name: 'Subscription renewal',
    type: 'SMS',
    template: 'Hi {{{firstName}}}, your {{{subscription}}} subscription renews on Friday. Reply SKIP to skip this month.',
  },
  { name: 'Review request', type: 'SMS', template: 'Hi {{{firstName}}}, how was the {{{favouriteRoast}}}? We would love a quick review: reply 1 to 5.' },
  { name: 'Back in stock', type: 'SMS', template: 'Good news {{{firstName}}}: {{{favouriteRoast}}} is back in stock. Reply YES and we will set a bag aside.' },
];

export const demoAutoResponder: SaveAutoResponderInput = {
  match: 'when do you ship',
  response: 'We roast Monday to Thursday and ship within 24 hours of roasting. Tracking follows by text.',
};

export const demoCampaign = {
  name: 'New harvest: Ethiopia Guji',
  description: 'Launch of the new Guji lot to every customer',
  tag: 'customer',
  template: 'Hi {{{firstName}}}, our new Ethiopia Guji harvest just landed! 15% off this week with code GUJI15. Reply STOP to opt out.',
} as const;

export type Turn = { from: 'contact' | 'business'; text: string };

/** A conversation after the campaign: who says what, in turn, and how the team left it. */
export interface DemoScript {
  contact: string;
  turns: Turn[];
  /** read: the team has read it; unread: the contact's last message waits; closed: done with. */
  end: 'read' | 'unread' | 'closed';
  /** A group of demoGroups the team gave the conversation to. */
  group?: string;
}

const contact = (text: string): Turn => ({ from: 'contact', text });
const business = (text: string): Turn => ({ from: 'business', text });

export const demoScripts: readonly DemoScript[] = [
  {
    contact: 'priya',
    turns: [
      contact('Yes please! Can you add a bag of the Guji to my next subscription box?'),
      business('Done, Priya! It ships with your box on Thursday, 15% off applied.'),
      contact('Perfect, thank you 🙏'),
    ],
    end: 'read',
  },
  { contact: 'marcus', turns: [contact('Is the Guji any good as espresso or better as filter?')], end: 'unread' },
  {
    contact: 'oliver',
    turns: [
      contact("Hi, my order says delivered but I can't find it anywhere"),
      business('Sorry about that, Oliver! The courier photo shows it by the side gate. Could you have a look?'),
      contact('Found it, behind the bins. Thanks!'),
    ],
    end: 'closed',
  },
  {
    contact: 'emily',
    turns: [
      business('Hi Emily, your Monthly 1 bag subscription renews on Friday. Reply SKIP to skip this month.'),
      contact('SKIP please, still have plenty'),
      business('No problem, skipped. See you next month!'),
    ],
    end: 'read',
  },
  {
    contact: 'jack',
    turns: [contact('Do you ship to Sydney? What does it cost?'), business('We do! Shipping to NSW is A$12, and free over A$60.')],
    end: 'read',
  },
  { contact: 'hannah', turns: [contact('Hi! When do you ship orders? Want it for the weekend')], end: 'unread' },
  {
    contact: 'noah',
    turns: [
      contact("We're opening a cafe in Portland in May. Do you do wholesale?"),
      business("We'd love to! I'll email our wholesale price list and a sample box today."),
      contact("Great, it's noah@bennettcafe.example"),
    ],
    end: 'unread',
    group: 'Wholesale',
  },
  {
    contact: 'amelia',
    turns: [business('Hi Amelia, the hand grinder you asked about is back in stock.'), contact('Brilliant, just ordered one')],
    end: 'closed',
  },
];
