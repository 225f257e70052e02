import { MATHEMATICS_CATEGORY, type ModerationCategory } from '#shared/constants.ts';

// Pure seed data (no I/O): the subject catalogue and the default moderation patterns.
// seed.ts inserts both idempotently.

interface SubjectCategorySeed {
  category: string;
  subjects: string[];
}

/** Subject names are unique across the whole catalogue: the request form lists them by name. */
export const SUBJECT_CATALOG: SubjectCategorySeed[] = [
  {
    category: MATHEMATICS_CATEGORY,
    subjects: [
      'Arithmetic',
      'Pre-Algebra',
      'Algebra',
      'Geometry',
      'Trigonometry',
      'Pre-Calculus',
      'Calculus',
      'Multivariable Calculus',
      'Linear Algebra',
      'Statistics',
      'Probability',
      'Discrete Mathematics',
      'Differential Equations',
      'Number Theory',
      'Real Analysis',
      'Abstract Algebra',
    ],
  },
  {
    category: 'Sciences',
    subjects: [
      'Physics',
      'Chemistry',
      'Organic Chemistry',
      'Biology',
      'Biochemistry',
      'Anatomy and Physiology',
      'Earth Science',
      'Environmental Science',
      'Astronomy',
    ],
  },
  {
    category: 'Computer Science',
    subjects: [
      'Programming Fundamentals',
      'Python',
      'Java',
      'Web Development',
      'Data Structures and Algorithms',
      'Databases and SQL',
      'Machine Learning',
      'Operating Systems',
      'Computer Networks',
    ],
  },
  {
    category: 'Languages',
    subjects: [
      'English as a Second Language',
      'Spanish',
      'French',
      'German',
      'Italian',
      'Mandarin Chinese',
      'Japanese',
      'Arabic',
    ],
  },
  {
    category: 'Business',
    subjects: [
      'Accounting',
      'Finance',
      'Microeconomics',
      'Macroeconomics',
      'Marketing',
      'Management',
      'Business Law',
      'Entrepreneurship',
    ],
  },
  {
    category: 'Humanities',
    subjects: [
      'History',
      'English Literature',
      'Academic Writing',
      'Philosophy',
      'Psychology',
      'Sociology',
      'Political Science',
      'Geography',
    ],
  },
  {
    category: 'Engineering',
    subjects: [
      'Engineering Mechanics',
      'Mechanical Engineering',
      'Electrical Engineering',
      'Circuit Analysis',
      'Civil Engineering',
      'Chemical Engineering',
      'Thermodynamics',
      'Signals and Systems',
    ],
  },
  {
    category: 'Arts and Music',
    subjects: ['Music Theory', 'Piano', 'Guitar', 'Drawing', 'Art History', 'Graphic Design', 'Photography'],
  },
  {
    category: 'Test Preparation',
    subjects: ['SAT', 'ACT', 'GRE', 'GMAT', 'IELTS', 'TOEFL', 'AP Exams'],
  },
];

interface ModerationPatternSeed {
  pattern: string;
  category: ModerationCategory;
  description: string;
}

// The patterns run case-insensitively in a linear-time engine (features/moderation/linear-patterns.ts), which has no
// lookarounds: a whole word is held by word boundaries, and where a word may start or end with a symbol ("@ss",
// "n1gg@") that side is written out (before or after a symbol, "no boundary" means no word character there).
/** The alternatives as whole words (or whole phrases). */
const word = (body: string) => String.raw`\b(?:${body})\b`;
const you = '(?:you|u|ya)';
const groups =
  '(?:jews|muslims|christians|blacks|whites|asians|arabs|africans|mexicans|immigrants|refugees|gays|lesbians|trans\\s+people|women)';

export const DEFAULT_MODERATION_PATTERNS: ModerationPatternSeed[] = [
  // Offensive language: common profanity roots, with their usual inflections.
  {
    pattern: String.raw`\b(?:mother)?f+[u*@#]+c+k+(?:[a-z]*)`,
    category: 'offensive',
    description: 'The f-word and its derivatives',
  },
  {
    pattern: word('(?:bull|horse|dip|dog)?sh[i1!]t(?:s|ty|ting|ter|head|heads|hole|show)?'),
    category: 'offensive',
    description: 'The s-word and its derivatives',
  },
  {
    pattern: word('b[i1!]tch(?:es|y|ing)?'),
    category: 'offensive',
    description: 'Bitch',
  },
  {
    pattern: String.raw`(?:\ba|\B@)(?:s|\$){2}[-\s]?(?:holes?|hats?|wipes?)\b|\b(?:dumb|jack|smart|fat)ass(?:es)?\b`,
    category: 'offensive',
    description: 'Insults built on "ass" (not words such as class, assess, assignment)',
  },
  {
    pattern: word('bastards?|dick(?:head|face|wad)s?|cocksuckers?|wank(?:er|ers|ing)?|twats?|cunts?'),
    category: 'offensive',
    description: 'Vulgar insults',
  },
  {
    pattern: word('sluts?|whores?'),
    category: 'offensive',
    description: 'Sexual insults',
  },
  {
    pattern: word('stfu|piss\\s+off'),
    category: 'offensive',
    description: 'Rude dismissals',
  },

  // Hate speech: the most common slurs (tolerating digit/symbol substitutions) and violent or
  // dehumanising statements about groups.
  {
    pattern: String.raw`\bn[i1!|]gg(?:(?:[e3]r|[a@]z|a)s?\b|@s\b|@\B)`,
    category: 'hate_speech',
    description: 'Racial slur (n-word)',
  },
  {
    pattern: word('f[a@4]g(?:g[o0]t)?s?|k[i1]kes?|tr[a@4]nn(?:y|ies)|retards?'),
    category: 'hate_speech',
    description: 'Homophobic, antisemitic, transphobic and ableist slurs',
  },
  {
    pattern: word('heil\\s+hitler|sieg\\s+heil|gas\\s+the\\s+jews'),
    category: 'hate_speech',
    description: 'Extremist slogans',
  },
  {
    pattern: word(
      `(?:all|those|these|filthy|dirty)\\s+${groups}\\s+(?:should|must|deserve\\s+to)\\s+(?:die|be\\s+killed|burn|be\\s+shot|be\\s+gassed)`,
    ),
    category: 'hate_speech',
    description: 'Calls for violence against a group',
  },
  {
    pattern: word(`${groups}\\s+are\\s+(?:vermin|animals|parasites|subhuman|cockroaches|rats|filth)`),
    category: 'hate_speech',
    description: 'Dehumanising statements about a group',
  },
  {
    pattern: word(`go\\s+back\\s+to\\s+(?:your|ur)\\s+(?:own\\s+)?country`),
    category: 'hate_speech',
    description: 'Xenophobic abuse',
  },

  // Harassment: self-harm incitement, threats and targeted abuse.
  {
    pattern: word('kill\\s*(?:your\\s*self|yourselves|urself|ur\\s+self|yoself)|kys|k\\s+y\\s+s'),
    category: 'harassment',
    description: 'Telling someone to kill themselves',
  },
  {
    pattern: word(
      `(?:go|please)\\s+die|${you}\\s+(?:should|deserve\\s+to)\\s+die|(?:i\\s+)?hope\\s+${you}\\s+(?:die|get\\s+(?:killed|raped|cancer))`,
    ),
    category: 'harassment',
    description: 'Wishing death or harm on someone',
  },
  {
    pattern: word(
      `(?:i['’]?ll|i\\s+will|i\\s+am\\s+(?:going\\s+to|gonna)|i['’]?m\\s+(?:going\\s+to|gonna)|im\\s+(?:going\\s+to|gonna))\\s+(?:kill|murder|rape|stab|shoot)\\s+${you}`,
    ),
    category: 'harassment',
    description: 'Threats of violence',
  },
  {
    pattern: word(`i\\s+know\\s+where\\s+${you}\\s+live`),
    category: 'harassment',
    description: 'Intimidation',
  },
  {
    pattern: word(
      `(?:you['’]?re|you\\s+are|ur|u\\s+r)\\s+(?:worthless|pathetic|a\\s+waste\\s+of\\s+(?:space|air|oxygen))|(?:nobody|no\\s+one)\\s+(?:likes|loves|wants)\\s+${you}`,
    ),
    category: 'harassment',
    description: 'Personal abuse',
  },
  {
    pattern: word('send\\s+(?:me\\s+)?(?:nudes|naked\\s+(?:pics|pictures|photos))'),
    category: 'harassment',
    description: 'Sexual harassment',
  },
];
