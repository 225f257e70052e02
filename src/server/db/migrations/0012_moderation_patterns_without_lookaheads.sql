-- Moderation patterns run in a linear-time engine without lookarounds: the default patterns, written with lookarounds
-- until now, become their word-boundary forms (the same matches). A pattern an admin changed or added is left as it
-- is; the filter skips one the engine cannot run.
UPDATE "moderation_patterns" SET "pattern" = '\b(?:mother)?f+[u*@#]+c+k+(?:[a-z]*)'
WHERE "pattern" = '(?<![a-z0-9_])(?:mother)?f+[u*@#]+c+k+(?:[a-z]*)' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:bull|horse|dip|dog)?sh[i1!]t(?:s|ty|ting|ter|head|heads|hole|show)?)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:bull|horse|dip|dog)?sh[i1!]t(?:s|ty|ting|ter|head|heads|hole|show)?)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:b[i1!]tch(?:es|y|ing)?)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:b[i1!]tch(?:es|y|ing)?)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '(?:\ba|\B@)(?:s|\$){2}[-\s]?(?:holes?|hats?|wipes?)\b|\b(?:dumb|jack|smart|fat)ass(?:es)?\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:a|@)(?:s|\$){2}[-\s]?(?:holes?|hats?|wipes?)|(?:dumb|jack|smart|fat)ass(?:es)?)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:bastards?|dick(?:head|face|wad)s?|cocksuckers?|wank(?:er|ers|ing)?|twats?|cunts?)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:bastards?|dick(?:head|face|wad)s?|cocksuckers?|wank(?:er|ers|ing)?|twats?|cunts?)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:sluts?|whores?)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:sluts?|whores?)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:stfu|piss\s+off)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:stfu|piss\s+off)(?![a-z0-9_])' AND "category" = 'offensive';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\bn[i1!|]gg(?:(?:[e3]r|[a@]z|a)s?\b|@s\b|@\B)'
WHERE "pattern" = '(?<![a-z0-9_])(?:n[i1!|]gg(?:[e3]r|[a@]|[a@]z)s?)(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:f[a@4]g(?:g[o0]t)?s?|k[i1]kes?|tr[a@4]nn(?:y|ies)|retards?)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:f[a@4]g(?:g[o0]t)?s?|k[i1]kes?|tr[a@4]nn(?:y|ies)|retards?)(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:heil\s+hitler|sieg\s+heil|gas\s+the\s+jews)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:heil\s+hitler|sieg\s+heil|gas\s+the\s+jews)(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:all|those|these|filthy|dirty)\s+(?:jews|muslims|christians|blacks|whites|asians|arabs|africans|mexicans|immigrants|refugees|gays|lesbians|trans\s+people|women)\s+(?:should|must|deserve\s+to)\s+(?:die|be\s+killed|burn|be\s+shot|be\s+gassed))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:all|those|these|filthy|dirty)\s+(?:jews|muslims|christians|blacks|whites|asians|arabs|africans|mexicans|immigrants|refugees|gays|lesbians|trans\s+people|women)\s+(?:should|must|deserve\s+to)\s+(?:die|be\s+killed|burn|be\s+shot|be\s+gassed))(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:jews|muslims|christians|blacks|whites|asians|arabs|africans|mexicans|immigrants|refugees|gays|lesbians|trans\s+people|women)\s+are\s+(?:vermin|animals|parasites|subhuman|cockroaches|rats|filth))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:jews|muslims|christians|blacks|whites|asians|arabs|africans|mexicans|immigrants|refugees|gays|lesbians|trans\s+people|women)\s+are\s+(?:vermin|animals|parasites|subhuman|cockroaches|rats|filth))(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:go\s+back\s+to\s+(?:your|ur)\s+(?:own\s+)?country)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:go\s+back\s+to\s+(?:your|ur)\s+(?:own\s+)?country)(?![a-z0-9_])' AND "category" = 'hate_speech';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:kill\s*(?:your\s*self|yourselves|urself|ur\s+self|yoself)|kys|k\s+y\s+s)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:kill\s*(?:your\s*self|yourselves|urself|ur\s+self|yoself)|kys|k\s+y\s+s)(?![a-z0-9_])' AND "category" = 'harassment';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:go|please)\s+die|(?:you|u|ya)\s+(?:should|deserve\s+to)\s+die|(?:i\s+)?hope\s+(?:you|u|ya)\s+(?:die|get\s+(?:killed|raped|cancer)))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:go|please)\s+die|(?:you|u|ya)\s+(?:should|deserve\s+to)\s+die|(?:i\s+)?hope\s+(?:you|u|ya)\s+(?:die|get\s+(?:killed|raped|cancer)))(?![a-z0-9_])' AND "category" = 'harassment';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:i[''’]?ll|i\s+will|i\s+am\s+(?:going\s+to|gonna)|i[''’]?m\s+(?:going\s+to|gonna)|im\s+(?:going\s+to|gonna))\s+(?:kill|murder|rape|stab|shoot)\s+(?:you|u|ya))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:i[''’]?ll|i\s+will|i\s+am\s+(?:going\s+to|gonna)|i[''’]?m\s+(?:going\s+to|gonna)|im\s+(?:going\s+to|gonna))\s+(?:kill|murder|rape|stab|shoot)\s+(?:you|u|ya))(?![a-z0-9_])' AND "category" = 'harassment';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:i\s+know\s+where\s+(?:you|u|ya)\s+live)\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:i\s+know\s+where\s+(?:you|u|ya)\s+live)(?![a-z0-9_])' AND "category" = 'harassment';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:(?:you[''’]?re|you\s+are|ur|u\s+r)\s+(?:worthless|pathetic|a\s+waste\s+of\s+(?:space|air|oxygen))|(?:nobody|no\s+one)\s+(?:likes|loves|wants)\s+(?:you|u|ya))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:(?:you[''’]?re|you\s+are|ur|u\s+r)\s+(?:worthless|pathetic|a\s+waste\s+of\s+(?:space|air|oxygen))|(?:nobody|no\s+one)\s+(?:likes|loves|wants)\s+(?:you|u|ya))(?![a-z0-9_])' AND "category" = 'harassment';
--> statement-breakpoint
UPDATE "moderation_patterns" SET "pattern" = '\b(?:send\s+(?:me\s+)?(?:nudes|naked\s+(?:pics|pictures|photos)))\b'
WHERE "pattern" = '(?<![a-z0-9_])(?:send\s+(?:me\s+)?(?:nudes|naked\s+(?:pics|pictures|photos)))(?![a-z0-9_])' AND "category" = 'harassment';
