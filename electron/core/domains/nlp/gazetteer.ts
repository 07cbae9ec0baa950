/**
 * Small word lists the NER featurizer turns into flags. They are hints, not the answer: the
 * training generator draws most names from larger pools in models/corpora, so the model learns
 * to read context and shape and does not depend on a name being listed here.
 */
import type { EntityType } from './contract';
import { LEX_BRANDS, LEX_COUNTRIES, LEX_FIRST, LEX_LAST, LEX_PLACES } from './lexicon';

const words = (s: string): string[] => s.trim().split(/\s*\n\s*|\s*,\s*/).filter(Boolean).map((w) => w.toLowerCase());

export const FIRST_NAMES = new Set(words(`
  james, mary, john, patricia, robert, jennifer, michael, linda, david, sarah, emma, olivia, liam, noah,
  sophia, lucas, mia, ethan, ava, amelia, oliver, anna, maria, jose, juan, carlos, lucia, sofia, diego,
  ahmed, mohammed, fatima, aisha, omar, layla, yusuf, priya, rahul, arjun, ananya, amara, ravi, deepa,
  wei, li, zhang, chen, mei, hiroshi, yuki, haruto, sakura, kenji, min-jun, ji-woo, seo-yeon, thanh, linh,
  olu, chidi, ngozi, kwame, ama, kofi, amina, tunde, zanele, thabo, lars, ingrid, sven, astrid, søren,
  björn, françois, amélie, jürgen, małgorzata, piotr, agnieszka, ivan, olga, dmitri, natasha, giulia,
  marco, alessandro, chiara, rafael, gabriel, beatriz, joão, tomás, niamh, siobhan, aoife, ciarán,
  alex, sam, chris, pat, jordan, taylor, morgan, casey, jamie, robin, kim, lee, ben, tom, kate, laura,
  peter, paul, mark, susan, karen, nina, elena, marta, sara, hannah, leah, rachel, daniel, benjamin,
  samuel, isaac, grace, chloe, zoe, ruby, lily, jack, harry, george, charlie, oscar, leo, max, felix
`));

export const SURNAMES = new Set(words(`
  smith, johnson, williams, brown, jones, garcia, miller, davis, rodriguez, martinez, hernandez, lopez,
  wilson, anderson, thomas, taylor, moore, jackson, martin, thompson, white, harris, clark, lewis,
  singh, patel, sharma, gupta, kumar, khan, ali, hussain, chen, wang, li, zhang, liu, yang, huang,
  tanaka, suzuki, sato, watanabe, kim, park, choi, nguyen, tran, pham, okafor, adeyemi, mensah,
  okonkwo, diallo, mbeki, nakamura, müller, schmidt, schneider, fischer, weber, dubois, moreau,
  lefebvre, rossi, russo, bianchi, ferrari, silva, santos, oliveira, costa, pereira, kowalski,
  nowak, ivanov, petrov, novak, larsen, hansen, nielsen, johansson, andersson, eriksson, o'brien,
  murphy, kelly, walsh, byrne, mcarthur, fernández, gonzález, pérez, sánchez, ramírez, torres
`));

export const TITLES = new Set(words(`
  dr, dr., mr, mr., mrs, mrs., ms, ms., prof, prof., professor, doctor, sir, dame, madam, capt, captain,
  rev, judge, president, senator, minister, ceo, cto, cfo, coach, nurse, officer, lord, lady,
  uncle, aunt, auntie, aunty, grandpa, grandma, granny, nan, nana, gran, grandad, granddad, cousin, cllr
`));

export const ORG_SUFFIXES = new Set(words(`
  inc, inc., corp, corp., corporation, ltd, ltd., llc, gmbh, ag, sa, plc, co, co., company, labs, lab,
  group, foundation, university, bank, institute, technologies, systems, partners, capital, ventures,
  studios, studio, agency, council, ministry, hospital, school, college, association, society, fund,
  holdings, industries, networks, solutions, software, media, press, club, committee, commission,
  department, office, bureau, team, consulting, analytics, robotics, health, airlines, motors
`));

export const ORGS = new Set(words(`
  google, microsoft, amazon, meta, openai, anthropic, stripe, netflix, spotify, ibm, intel, nvidia, amd,
  mozilla, nasa, unicef, unesco, who, nato, bbc, cnn, reuters, tesla, airbnb, uber, lyft, shopify,
  atlassian, salesforce, oracle, sap, siemens, bosch, samsung, sony, toyota, honda, ikea, spacex,
  deloitte, mckinsey, accenture, kpmg, pwc, barclays, hsbc, jpmorgan, goldman, cloudflare, vercel,
  datadog, twilio, hashicorp, canonical, mit, stanford, harvard, oxford, cambridge, eth, infosys, wipro
`));

export const PRODUCTS = new Set(words(`
  postgres, postgresql, mysql, sqlite, redis, kafka, rabbitmq, kubernetes, k8s, docker, terraform,
  ansible, react, vue, svelte, angular, typescript, javascript, python, rust, golang, java, kotlin,
  swift, ruby, php, haskell, elixir, scala, node, node.js, nodejs, deno, bun, vim, neovim, emacs,
  vscode, figma, notion, obsidian, slack, jira, confluence, trello, asana, excel, word, powerpoint,
  photoshop, illustrator, iphone, ipad, macbook, android, windows, linux, macos, ubuntu, debian,
  fedora, chrome, firefox, safari, postman, webpack, vite, next.js, nextjs, django, flask, fastapi,
  rails, laravel, spring, graphql, elasticsearch, mongodb, dynamodb, s3, lambda, bigquery, snowflake,
  tableau, airflow, spark, hadoop, pytorch, tensorflow, numpy, pandas, jupyter, git, github, gitlab,
  bitbucket, zoom, teams, discord, whatsapp, telegram, signal, gmail, outlook, dropbox, onedrive,
  chatgpt, claude, copilot, cursor, electron, tailwind, bootstrap, jquery, nginx, apache, grafana,
  prometheus, sentry, heroku, netlify, firebase, supabase, prisma, vitest, jest, playwright, cypress,
  kindle, pixel, thinkpad, playstation, xbox, switch, alexa, siri, sketch, miro, loom, calendly, zapier
`));

export const PRODUCT_PHRASES = ['vs code', 'visual studio code', 'google docs', 'google sheets', 'google drive',
  'google cloud', 'microsoft teams', 'apple watch', 'iphone 15', 'sql server', 'android studio',
  'home assistant', 'final cut pro', 'logic pro', 'adobe acrobat', 'github actions', 'aws lambda'];

export const GPES = new Set(words(`
  usa, us, uk, america, canada, mexico, brazil, argentina, chile, peru, colombia, germany, france,
  spain, italy, portugal, netherlands, belgium, switzerland, austria, poland, sweden, norway, denmark,
  finland, ireland, scotland, england, wales, greece, turkey, russia, ukraine, china, japan, korea,
  india, pakistan, bangladesh, vietnam, thailand, indonesia, philippines, malaysia, singapore,
  australia, zealand, nigeria, ghana, kenya, egypt, morocco, ethiopia, africa, europe, asia, london,
  paris, berlin, madrid, rome, lisbon, amsterdam, brussels, vienna, zurich, geneva, munich, hamburg,
  stockholm, oslo, copenhagen, helsinki, dublin, edinburgh, manchester, warsaw, prague, budapest,
  athens, istanbul, moscow, kyiv, tokyo, osaka, kyoto, seoul, beijing, shanghai, shenzhen, delhi,
  mumbai, bangalore, bengaluru, chennai, karachi, dhaka, hanoi, bangkok, jakarta, manila, sydney,
  melbourne, auckland, toronto, vancouver, montreal, chicago, boston, seattle, austin, denver, atlanta,
  miami, dallas, houston, portland, lagos, nairobi, accra, cairo, johannesburg, cape, casablanca,
  texas, california, ohio, bavaria, ontario, quebec, catalonia, brooklyn, berkeley, oakland
`));

export const GPE_PHRASES = ['new york', 'new york city', 'san francisco', 'los angeles', 'hong kong', 'new zealand',
  'south africa', 'south korea', 'united states', 'united kingdom', 'cape town', 'tel aviv', 'rio de janeiro',
  'são paulo', 'sao paulo', 'buenos aires', 'mexico city', 'kuala lumpur', 'abu dhabi', 'washington dc',
  'san diego', 'las vegas', 'new delhi', 'the netherlands', 'saudi arabia'];

export const MONTHS = new Set(words(`
  january, february, march, april, may, june, july, august, september, october, november, december,
  jan, jan., feb, feb., mar., apr, apr., jun, jun., jul, jul., aug, aug., sep, sep., sept, sept., oct, oct., nov, nov., dec, dec.
`));

export const WEEKDAYS = new Set(words(`
  monday, tuesday, wednesday, thursday, friday, saturday, sunday, mon, tue, tues, wed, thu, thurs, fri,
  sat, sun, mondays, tuesdays, wednesdays, thursdays, fridays, saturdays, sundays, weekend, weekends
`));

export const DATE_WORDS = new Set(words(`
  today, tomorrow, yesterday, tmrw, tmr, week, weeks, month, months, year, years, quarter, quarters,
  q1, q2, q3, q4, h1, h2, fortnight, ago, next, last, this, end, beginning, start, mid, early, late,
  spring, summer, autumn, fall, winter, christmas, easter, eoy, eom, day, days
`));

export const TIME_WORDS = new Set(words(`
  am, pm, a.m., p.m., noon, midnight, morning, afternoon, evening, night, tonight, o'clock, oclock,
  utc, gmt, est, edt, pst, pdt, cet, cest, ist, jst, hrs, h, minutes, mins, hour, hours, half, quarter
`));

/** Multi-word names as lists of lowercase tokens; matched before single tokens. */
export const PHRASES: Array<{ tokens: string[]; type: EntityType }> = [
  ...PRODUCT_PHRASES.map((p) => ({ tokens: p.split(' '), type: 'PRODUCT' as const })),
  ...GPE_PHRASES.map((p) => ({ tokens: p.split(' '), type: 'GPE' as const })),
];

/**
 * Larger generated lists (lexicon.ts, from faker's locale tables): a hash-chosen 60% of the
 * first names, surnames and towns the generator draws from, and all country names. They are
 * separate flags from the small hand lists above, which the heuristic fallback also uses.
 */
export const LEX = {
  first: new Set(LEX_FIRST.split('|')),
  last: new Set(LEX_LAST.split('|')),
  place: new Set(LEX_PLACES.split('|')),
  country: new Set(LEX_COUNTRIES.split('|')),
  brand: new Set(LEX_BRANDS.split('|')),
};
