"""Compiled regular expressions for the offline rule-based extractor."""

from __future__ import annotations

import re

from .. import calendar_words as CW
from .lexicon import NUMBER_WORDS, ORDINAL_WORDS, PETS, REL_MODIFIERS, RELATIONS, VERBS

TRAILING_DROP = re.compile(
    r"(?:\s+(?:too|as\s+well|anymore|any\s+more|a\s+lot|so\s+much|very\s+much|now|though|"
    r"lately|these\s+days|every\s+day|again|either|also|here|there|right\s+now|already|soon|"
    r"myself|ourselves|though|haha|lol|lmao|tbh|imo|ngl|tho|atm|honestly|personally|actually|"
    r"really|and|or|but|of|with|for|at|in|on|to|from|by|the|a|an|my|our))+$", re.IGNORECASE)
# --- regular expressions ----------------------------------------------------------------------

AP = r"['’]"
# Cheap prefilters: most sentences carry no first-person statement at all.
FIRST_PERSON = re.compile(r"\b(?:i|my|we|our|me|us)\b", re.IGNORECASE)
ASSISTANT_CUE = re.compile(r"recommend|suggest|\btry\b|\bconsider\b|\bcheck\s+out|"
                           r"\bmy\s+(?:top\s+)?(?:pick|suggestion|recommendation)", re.IGNORECASE)
# A statement with a question after it in one sentence: "We're thinking of doing Lisbon in April,
# any tips on where to stay?" (the statement before the comma or dash is read, the question not).
QUESTION_TAIL = re.compile(
    r"\s*(?:,|;|\s[—–-]+)\s*(?:so\s+|and\s+|but\s+)?(?:any|what|whats|what" + AP + r"s|how|where|which|"
    r"who|should|can|could|would|do|does|is|are|thoughts|ideas|suggestions|recommendations|advice|"
    r"tips|help|tell|give|suggest|recommend|please)\b[^,;—–]*\?[\s?!]*$", re.IGNORECASE)
QUESTION_START = re.compile(
    r"^\W*(?:(?:so|and|but|also|ok|okay|well|hmm|oh|hey|hi)\b\W*)*"
    r"(?:(?:do|does|did|can|could|should|would|will|shall|is|are|am|was|were|have|has|had|may|"
    r"might|must)(?:n" + AP + r"t)?\s+(?:i|you|we|it|there|they|he|she|my|your|our|the|this|"
    r"that|these|those)\b|(?:what|where|when|why|how|which|who|whom|whose)\s+(?:do|does|did|"
    r"can|could|should|would|will|shall|is|are|am|was|were|have|has|had|may|might)(?:n" + AP +
    r"t)?\s+(?:i|you|we|it|there|they|he|she|my|your|our|the|this|that)\b)", re.IGNORECASE)
CONDITIONAL = re.compile(r"\b(?:if|unless|whether|suppose|supposing|imagine|wonder|wondering|"
                         r"wish|hope|hoping|dream|dreaming|pretend|don\S?t\s+think|doubt|"
                         r"not\s+sure|unsure|should\s+i|would\s+i|could\s+i|"
                         r"in\s+case|what\s+if|even\s+though\s+i\s+might|like|as\s+if|"
                         r"as\s+though|pretend|pretending|assume|assuming|let['’]s\s+say)\b",
                         re.IGNORECASE)
_ABBR = r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bJr)(?<!\bSr)(?<!\bvs)(?<!\bMt)"
CLAUSE_BREAK = re.compile(r"[,;:!?()\[\]\n—–]|" + _ABBR + r"\.(?=\s|$)|\s-\s")


def clause(text: str, pos: int) -> tuple[int, int]:
    """The clause of `text` holding `pos`: from the end of the last clause break at or before it
    to the start of the first break after it."""
    start, end = 0, len(text)
    for m in CLAUSE_BREAK.finditer(text):
        if m.end() <= pos:
            start = m.end()
        elif m.start() >= pos:
            end = m.start()
            break
    return start, end

# Where an object phrase ends.
BOUNDARY = re.compile(
    r"[,;:!?()\[\]\n—–]|" + _ABBR + r"\.(?=\s|$)|\s-\s|\s+(?-i:I|we)\b(?!['’]s)|"
    r"\s+(?:and|but|because|since|so|although|though|"
    r"while|whereas|or|which|who|whom|where|when|whenever|unless|if|until|cause|cuz|plus|"
    r"then|as\s+well\s+as|rather\s+than|instead\s+of|except)\b", re.IGNORECASE)
CAP_START = re.compile(r"[A-Z0-9]")
PRONOUN_START = re.compile(r"(?:it|that|this|these|those|them|him|her|hers|his|theirs|yours|"
                           r"mine|ours|you|me|us|one)\b",
                           re.IGNORECASE)

_MONTHS = CW.MONTH_PATTERN  # full names and abbreviations, longest first
_WD = CW.WEEKDAY_PATTERN
_NUMW = "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True))
# Where a chat sentence starts without its subject ("Back from Lisbon yesterday!", "Picked up
# two more fish today"): the speaker is the subject.
SENTENCE_START = (r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))[\"'“(]*(?:(?:just|finally|so|well|and|also|"
                  r"anyway|ok|okay|oh|update|officially|guess\s+who)[\s,:!]+)*")
# Trailing material a place/organisation/event value should not carry.
VALUE_TAIL = re.compile(
    r"\s+(?:with|for|because|since|so|when|while|after|before|until|that|to|as|from|about|"
    r"during|ever|over|around|near|like|just|last|this|next|every|each|yesterday|today|"
    r"tonight|tomorrow|ago|recently|lately|once|twice|again|now|already|back|here|there|by|instead|"
    r"and|or|but|on\s+(?:the\s+)?(?:weekend|weekends)|for\s+\w+|in\s+the\s+end|"
    r"(?:(?:\d+|a|an|a\s+few|a\s+couple\s+of|several|many|" + _NUMW + r")\s+)?"
    r"(?:ages|years|months|weeks|days)\s+ago|"
    # a time or a degree said after the value: "Canva on Monday", "energy drinks pretty much"
    r"on\s+(?:" + _WD + r")s?|in\s+(?:" + _MONTHS + r")|pretty|really|quite|way\s+too|most|almost|"
    r"nearly|basically)(?=\s|$).*$", re.IGNORECASE)
FUTURE_TIME = re.compile(r"\b(?:tomorrow|tonight|next|this\s+coming|later|soon|upcoming|in\s+"
                         r"(?:a|an|two|three|a\s+few|\d+)\s+(?:day|week|month|year)s?)\b",
                         re.IGNORECASE)

_AUX_WORDS = (
    "am|are|was|were|have|has|had|do|did|does|been|just|also|really|actually|recently|finally|"
    "completely|entirely|fully|properly|utterly|so|"
    "still|usually|always|often|sometimes|now|already|totally|absolutely|definitely|honestly|"
    "truly|even|currently|officially|originally|mostly|generally|basically|literally|"
    "personally|only|first|then|eventually|kinda|kind\\s+of|sort\\s+of|pretty\\s+much|"
    "pretty|seriously|genuinely|particularly|especially|simply|mainly|normally|typically|"
    "once|lately|both|all|too|don" + AP + "t|do\\s+not|didn" + AP + "t|did\\s+not|doesn" + AP +
    "t|never|no\\s+longer|not|ain" + AP + "t|haven" + AP + "t|have\\s+not|hadn" + AP + "t|"
    "wasn" + AP + "t|weren" + AP + "t|aren" + AP + "t|used\\s+to|use\\s+to")
_VERB_ALT = "|".join(
    re.sub(r"'", AP, re.sub(r"\s+", r"\\s+", re.escape(v).replace(r"\ ", " ")))
    for v in sorted(VERBS, key=len, reverse=True))
CLAUSE = re.compile(
    r"\b(?P<subj>I|we)(?P<aux>(?:" + AP + r"(?:m|ve|re)\b)?(?:\s+(?:" + _AUX_WORDS + r")\b)*)"
    r"\s+(?P<verb>" + _VERB_ALT + r")(?![\w'’-])", re.IGNORECASE)
# Past-tense verb phrases a subjectless sentence may open with ("Moved to Denver in May").
IRREGULAR_PAST = frozenset("got went took began left quit sold bought came flew drove ran won met "
                            "made had gave found kept sent spent".split())
_PAST_ALT = "|".join(sorted((v for v in VERBS if v.split()[0].endswith("ed") or v.split()[0]
                             in IRREGULAR_PAST or v.startswith(("back ", "just back ",
                                                                 "finally back "))),
                            key=len, reverse=True))
# The verb is capitalised as a sentence's first word is (a piece that starts mid-sentence,
# "applied to Astronomy", is no sentence), and a heading ("Preferred Vendors") is no statement.
SUBJECTLESS = re.compile(SENTENCE_START + r"(?P<subj>)(?P<aux>)(?:(?<=[\s,:!])|(?=(?-i:[A-Z])))"
                         r"(?P<verb>" + _PAST_ALT + r")(?![\w'’-])"
                         r"(?!(?:\s+(?-i:[A-Z])[\w'’-]*)+\s*$)", re.IGNORECASE)
NEGATORS = re.compile(r"\b(?:not|never|no\s+longer|\w+n" + AP + r"t)\b", re.IGNORECASE)
BE_AUX = re.compile(r"(?:" + AP + r"(?:m|re)|\b(?:am|are|was|were))\b", re.IGNORECASE)
PERFECT_AUX = re.compile(r"(?:" + AP + r"ve|\b(?:have|has))\b", re.IGNORECASE)
USED_TO = re.compile(r"\bused?\s+to\b", re.IGNORECASE)
PAST_AUX = re.compile(r"\b(?:was|were|did|had)\b", re.IGNORECASE)

# --- plans and hypotheticals --------------------------------------------------------------------

_ADV = r"(?:\s+(?:really|also|definitely|probably|just|actually|still|finally|now|seriously|" \
       r"hopefully|maybe|eventually|soon|possibly|totally|kind\s+of|sort\s+of))*"
_PLANNED = (r"planning\s+(?:to|on)|planning(?=\s+(?:a|an|the|my|our|some)\s)|plan\s+(?:to|on)|"
            r"going\s+to|gonna|intend\s+to|"
            r"intending\s+to|about\s+to|scheduled\s+to|set\s+to|will|decided\s+to|"
            r"have\s+decided\s+to|booked\s+to")
_HYPO = (r"might|may|would\s+(?:like|love)\s+to|want\s+to|wanna|hope\s+to|hoping\s+to|"
         r"thinking\s+(?:about|of)|considering|looking\s+to|dreaming\s+of|wish\s+I\s+could|"
         r"would\s+really\s+like\s+to")
PLAN = re.compile(
    r"\b(?P<subj>I|we)(?:(?P<att>" + AP + r"ll|" + AP + r"d\s+(?:really\s+)?(?:like|love)\s+to)"
    r"|(?:" + AP + r"(?:m|ve|re)|\s+(?:am|are|have))?" + _ADV +
    r"\s+(?:(?P<planned>" + _PLANNED + r")|(?P<hypo>" + _HYPO + r")))" + _ADV +
    r"\s+(?P<rest>[^\s,;.!?])", re.IGNORECASE)
# A trip called off: "we're not going to Rome anymore", "I'm no longer going to Leeds".
PLAN_OFF = re.compile(
    r"\b(?P<subj>(?i:I|we))(?:" + AP + r"(?:m|re)|\s+(?i:am|are))" + _ADV +
    r"\s+(?i:not|no\s+longer)\s+(?i:going)\s+(?i:to)\s+(?P<rest>(?:(?i:the)\s+)?[A-Z])")
PLAN_STOP = re.compile(
    r"(?:be(?!\s+(?:in|at|visiting|traveling|travelling|moving|going|starting|attending|flying|"
    r"heading|staying|running|hosting|celebrating|taking|getting|joining|spending|working\s+at|"
    r"working\s+for|studying|leaving|on\s+vacation))|"
    # "do a road trip around Scotland", "do the Paris marathon" is a plan; "do it", "do some
    # research" are not
    r"do(?!\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,2}(?:trip|tour|holiday|vacation|marathon|"
    r"half|hike|trek|ride|race|triathlon|10k|5k|cruise|course|retreat|residency|ultra)\b)|"
    r"try(?=\s+(?:it|that|this|them|those|these|again|harder|my\s+best|something|one)\b|\s*$)|"
    r"let|keep|check|think|see|look|give|need|have|get\s+back|make\s+sure|"
    r"go\s+ahead|remember|consider|use|say|ask|tell|help|bear|note|take\s+(?:a\s+look|"
    r"your|that|note|it|this|these|care)|definitely|not|never|probably|start\s+with|"
    r"stick\s+with|go\s+with|wait|figure|find\s+out|report|update|share|explain|answer|"
    r"mention|add|send|follow|double-check|appreciate|love\s+to\s+hear|like\s+to\s+(?:know|"
    r"hear|ask|see)|know|hear|pass|work\s+on\s+(?:it|that)|start\s+by|begin\s+by|focus\s+on|"
    r"include|emphasi[sz]e|highlight|summari[sz]e|recap|learn\s+more|clarify|confirm|"
    r"understand|ensure|double|avoid|make\s+the\s+most|get\s+(?:your|some|more)\s+"
    r"(?:advice|help|input|thoughts|feedback|ideas|suggestions|recommendations|information|"
    r"info|tips)|always|surely|certainly|gladly|happily|stay|reach\s+out|keep|start\s+"
    r"(?:thinking|looking|considering)|go\s+from\s+there|get\s+started)\b", re.IGNORECASE)
DETERMINER = re.compile(r"(?:the|a|an|my|our|his|her|their|this|that|some|[A-Z])\b|[A-Z]")

# --- other shapes -------------------------------------------------------------------------------

_NAME = r"(?P<name>(?!(?:I|I'm|The|A|An|And|But|So|Is|It|He|She|We|They|This|That|There|Then|" \
        r"Yes|No|Oh|Hi|Thanks|Who|What|When|Where|Why|How|Has|Had|Was|Were|Did|Does|Do|Can|" \
        r"Will|Would|Should|Just|Also|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|" \
        r"Sunday|Christmas|Thanksgiving|Easter|Mom|Dad)\b)[A-Z][a-z]+" \
        r"(?:-[A-Z]?[a-z]+|['’][A-Z][a-z]+)?" \
        r"(?:\s+(?!(?:I|And|But|Is|Was|Has|Had|Who|And|Or|The)\b)[A-Z][a-z]+)?)"
_REL_ALT = "|".join(re.escape(r) for r in sorted({**RELATIONS, **PETS}, key=len, reverse=True))
RELATION_REV = re.compile(
    _NAME + r"(?:,\s+|\s+)(?i:(?:is|was)\s+(?:also\s+)?(?P<pos>my|our)\s+(?P<mods>(?:(?:"
    + REL_MODIFIERS + r")[\s-]+)*)(?P<rel>" + _REL_ALT + r"))(?![\w-])")
RELATION = re.compile(
    r"(?i:\b(?P<pos>my|our)\s+(?P<mods>(?:(?:" + REL_MODIFIERS + r")[\s-]+)*)"
    r")(?P<rel>" + _REL_ALT + r")(?![\w-])(?:" + AP + r"s\s+name)?,?\s+"
    r"(?i:(?:(?:is|was)\s+(?:called\s+|named\s+)?|(?:named|called)\s+))?" + _NAME + r"(?!\w)")
HAVE_NAMED = re.compile(
    r"(?i:^(?:a|an|one|another)\s+(?:(?:\w+[\s-]+){0,2}?)(?P<noun>" + _REL_ALT + r")\s+"
    r"(?:named|called))\s+" + _NAME)
NAME = re.compile(_NAME)
FAVORITE = re.compile(
    r"\b(?P<pos>my|our)\s+(?:(?:all[\s-]time|absolute|new|current|very|personal|number\s+one|"
    r"top|favou?rite)\s+)*favou?rite\s+(?P<cat>(?:(?!(?:since|when|because|i|that|who|which|"
    r"until|ever)\b)[a-z][a-z'’-]*\s+){0,3}?[a-z][a-z'’-]*)\s+"
    r"(?P<verb>is|are|was|used\s+to\s+be|would\s+be|has\s+to\s+be|has\s+always\s+been|"
    r"right\s+now\s+is|"
    r"at\s+the\s+moment\s+is|these\s+days\s+is|'s|’s)(?:\s+(?:now|still|definitely|probably|"
    r"actually|currently|officially|easily|hands\s+down))*\s+(?P<val>\S)", re.IGNORECASE)
FAVORITE_REV = re.compile(
    r"(?P<val>[^\s,;:.!?][^,;:.!?]*?)\s+(?:is|are|has\s+become|became)\s+(?:definitely\s+|"
    r"still\s+|now\s+|probably\s+|easily\s+|officially\s+)*(?P<pos>my|our)\s+"
    r"(?:(?:all[\s-]time|absolute|new|current|very|personal)\s+)*favou?rite(?:\s+(?!(?:now|these|"
    r"at|right|lately|still|again|too|by|ever|of|in|because|and|but|so|to)\b)(?P<cat>"
    r"(?:(?:type|kind|sort|genre|style)\s+of\s+)?[a-z]+(?:\s+(?!(?:now|these|at|right|lately|"
    r"still|again|too|by|ever|of|in|because|and|but|so|to)\b)[a-z]+)?))?"
    r"(?=\s*(?:[,.!;]|$|\s+(?:by|of|in|because|and|but|so|ever|right|these|at|to|now|lately|"
    r"still|again|too)\b))",
    re.IGNORECASE)
# "I could eat sushi every day, it's my favourite food", "Murakami — he's my favourite author":
# the favourite named by a pronoun right after the thing it stands for.
FAVORITE_PRONOUN = re.compile(
    r"(?:[,;:]\s*|\s[-–—]\s*|\s(?:and|so)\s+)(?P<pro>it|that|he|she|they)(?:" + AP +
    r"s|" + AP + r"re|\s+is|\s+are)\s+(?:(?:definitely|honestly|easily|probably|still|now|"
    r"officially|basically|literally|actually|hands\s+down|by\s+far)\s+)*(?:my|our)\s+"
    r"(?:(?:all[\s-]time|absolute|new|current|very|personal|number\s+one|top)\s+)*favou?rite\s+"
    r"(?P<cat>[a-z]+(?:\s+(?!(?:by|of|in|ever|now|and|but|so|too|at|for|on|these|this|that|"
    r"right|lately|since|though|tbh|honestly|atm)\b)[a-z]+)?)"
    r"\b(?![-'’])(?!\s+of\b)", re.IGNORECASE)  # "my favourite time of day" names no thing
# What such a pronoun stands for: what the user loves, eats, reads, watches … in the clause before
# ("I could eat sushi every single day"), or the sentence's subject ("Pizza is great").
FAVORITE_ANTECEDENT = re.compile(
    r"(?:\b(?:I|we)(?:" + AP + r"(?:ve|m|d)\b)?(?:\s+(?:really|just|absolutely|honestly|totally|"
    r"could|would|can|have|been|am|still|always|never\s+stop))*\s+|^(?:(?:been|just|still|"
    # no subject said: "Been rereading a lot of Le Guin", "Okay update, had dinner at …"
    r"currently|finally)\s+)+|(?:^|[,:]\s*)(?=(?-i:[A-Za-z])))"
    r"(?:love|loved|adore|adored|eat|ate|eating|watch|watched|watching|read|reading|reread|"
    r"rereading|re-reading|rewatching|re-watching|listen\s+to|"
    r"listened\s+to|listening\s+to|play|played|playing|drink|drinking|cook|cooking|rewatched|"
    r"discovered|tried|got\s+into|getting\s+into|obsessed\s+with|hooked\s+on|"
    r"(?:had|have\s+had)\s+(?:dinner|lunch|brunch|breakfast|drinks|a\s+meal)\s+at|ate\s+at|"
    r"stayed\s+at|visited|went\s+to|been\s+to)\s+"
    r"(?:(?:a\s+lot\s+of|lots\s+of|loads\s+of|tons\s+of|plenty\s+of|so\s+much|some|the|this|"
    r"that|all\s+the)\s+)?(?P<np>\S)"
    r"|^(?P<subj>(?-i:[A-Z])[\w'’-]*(?:\s+(?!(?:is|was|are|were)\b)[\w'’-]+){0,3}?)\s+"
    r"(?:is|was|are)\s+(?:so\s+|really\s+|just\s+)?(?:great|amazing|the\s+best|incredible|"
    r"awesome|brilliant|fantastic|unreal|so\s+good|good)\b", re.IGNORECASE)
# Words that end the antecedent's phrase: how often, how much, since when.
FAVORITE_NP_END = re.compile(
    r"\s+(?:every|most|each|all|honestly|lately|recently|again|non-?stop|constantly|so|a\s+lot|daily|"
    r"weekly|at\s+least|right|these|this|last|twice|three|once|for|on|at|with|because|in|during|"
    r"over|since|yesterday|tonight|today|earlier)\b",
    re.IGNORECASE)
# A sentence that narrates a stretch of the past: "I spent 4 years in that agency, where …".
NARRATED_PAST = re.compile(
    r"\b(?:spent|spending)\s+(?:\d+|" + _NUMW + r"|a\s+few|several)\s+(?:years|months)\b|"
    r"\btowards?\s+the\s+(?:last|end)\b|\bback\s+then\b|\bat\s+the\s+time\b|\bin\s+my\s+previous\s+"
    r"(?:job|role|company)\b", re.IGNORECASE)
# "I have a new favorite book and it's Piranesi", "New favourite restaurant alert: Kiln".
FAVORITE_NEW = re.compile(
    r"\bnew\s+favou?rite\s+(?P<cat>[a-z]+(?:\s+[a-z]+)??)\s*(?:alert\s*)?(?::|—|–|\s-|,?\s+and\s+"
    r"it(?:" + AP + r"s|\s+is)|,\s*it(?:" + AP + r"s|\s+is)|\s+is)\s+(?P<val>\S)", re.IGNORECASE)
# "Pizza used to be my favourite food but now it's ramen": the old favourite and the new one.
FAVORITE_WAS = re.compile(
    r"(?P<old>[^\s,;:.!?][^,;:.!?]{0,40}?)\s+used\s+to\s+be\s+(?:my|our)\s+(?:all[\s-]time\s+)?"
    r"favou?rite\s+(?P<cat>[a-z]+)\b[^.;!?]{0,30}?\bnow\s+(?:it" + AP + r"s|it\s+is|(?:my|our)\s+"
    r"favou?rite\s+is|I\s+(?:love|prefer)|I" + AP + r"m\s+(?:all\s+about|into))\s+(?P<val>\S)",
    re.IGNORECASE)
FAV_CAT_DROP = re.compile(r"^(?:type|kind|sort|genre|style|brand|form|flavou?r)\s+of\s+",
                          re.IGNORECASE)
# Where or since when it is the favourite, said after the kind of thing: "my favourite
# restaurant in London" is the favourite restaurant (not "my favourite part of the trip": a part
# of one thing, its own slot). Matched on the words as written (a place has a capital).
FAV_CAT_WHERE = re.compile(r"\s+(?:(?:in|around|near)\s+(?-i:[A-Z])[\w'’.-]*(?:\s+[\w'’.-]+)*"
                           r"|of\s+all\s+time|ever)$")
OCCUPATION = re.compile(
    r"\b(?P<subj>I)(?:" + AP + r"m|\s+am)(?P<neg>\s+not)?(?:\s+(?:currently|now|actually|also|"
    r"still|just|really|officially|finally|working\s+as|employed\s+as))*\s+(?:an?)\s+"
    r"(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})", re.IGNORECASE)
OCC_NP_STOP = re.compile(r"\s+(?:at|for|in|with|who|and|from|by|on|of|so|but|that|to|here|"
                         r"there|now|since|because|myself|too)\b.*$", re.IGNORECASE)
STATUS = re.compile(
    r"\b(?P<subj>I|we)(?:" + AP + r"m|" + AP + r"re|\s+am|\s+are|"
    # becoming it: "I went vegetarian last year", "we've decided to stay vegan"
    r"(?:\s+(?:just|finally|recently|officially))?(?:\s+went|\s+have\s+gone|" + AP + r"ve\s+gone|"
    r"\s+became|\s+have\s+become|" + AP + r"ve\s+become|\s+turned|(?:" + AP + r"ve|\s+have)?"
    r"\s+decided\s+to\s+(?:just\s+)?(?:go|stay|be))"
    # "I finally retired in June": the verb is the status
    r"|(?:\s+(?:just|finally|recently|officially))?(?=\s+retired\b(?!\s+(?:the|my|our|a|an|it|"
    r"him|her|them|his|their)\b)))(?P<neg>\s+not)?"
    r"(?:\s+(?:also|actually|now|still|strictly|mostly|fully|officially|finally|happily|"
    r"recently|newly|just|a|an))*\s+(?P<attr>vegan|vegetarian|pescatarian|omnivore|flexitarian|"
    r"meat[\s-]eater|lactose[\s-]intolerant|"
    r"gluten[\s-]free|allergic\s+to|retired|unemployed|self-employed|married|engaged|divorced|"
    r"single|widowed|separated|pregnant|in\s+a\s+relationship)(?![\w-])", re.IGNORECASE)
COUNT_DONE = re.compile(
    r"\b(?P<subj>I|we)(?:" + AP + r"ve|\s+have|\s+had)(?:\s+(?:now|already|just|officially|"
    r"finally|successfully|only|actually|also|since|so\s+far))*\s+(?P<verb>run|completed|"
    r"finished|read|visited|watched|done|written|published|climbed|baked|cooked|made|"
    r"seen|played|won|attended|taken|hiked|traveled\s+to|travelled\s+to|been\s+to|"
    r"collected|saved|lost|knitted|painted|built|sold|planted|tried|owned|had|adopted|"
    r"worked\s+at|lived\s+in|volunteered\s+at|competed\s+in|participated\s+in)\s+"
    r"(?P<num>\d{1,4}|" + _NUMW + r"|a\s+couple\s+of|a\s+dozen)\s+(?:(?:different|other|"
    r"more|new|full|half|total|separate|whole)\s+)*"
    r"(?P<noun>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3})",
    re.IGNORECASE)
ORDINAL = re.compile(
    r"\b(?:this|it)(?:" + AP + r"s|\s+is|\s+was|\s+will\s+be)\s+(?:(?:going\s+to\s+be|actually|"
    r"only|already|officially)\s+)*(?P<pos>my|our)\s+(?P<ord>" +
    "|".join(ORDINAL_WORDS) + r"|\d{1,3}(?:st|nd|rd|th))\s+(?P<noun>[a-z][a-z'-]*"
    r"(?:\s+[a-z][a-z'-]*){0,4})", re.IGNORECASE)
HAVE_OBJ = re.compile(
    r"^(?P<num>\d{1,4}|" + _NUMW + r"|a\s+couple\s+of|a\s+dozen|another|a|an|no|two\s+more|"
    r"(?:a\s+)?(?:second|third|new))\s+(?P<adj>(?:(?!(?:on|in|at|of|for|with|from|to|by)\b)"
    r"[\w-]+\s+){0,2}?)(?P<noun>guinea\s+pigs?|"
    r"[a-z][a-z-]*)(?=\s*$|\s*[,.;!?]|\s+(?:named|called|and|who|that|at|in|from|now|too|"
    r"as|with|whom|which|so|but|right|already|after|since|altogether|in\s+total)\b)", re.IGNORECASE)

# --- the assistant's recommendations ------------------------------------------------------------

RECOMMEND = re.compile(
    r"(?:\b(?:I|we)(?:" + AP + r"d|\s+would|\s+(?:highly|strongly|definitely|really|also|"
    r"personally|usually|generally|always|especially|particularly|would|might|can|could|"
    r"totally))*\s+(?:recommend|suggest|advise)(?:ing)?|\byou\s+(?:could|might|can|should|may)"
    r"(?:\s+(?:also|definitely|really|want\s+to|like\s+to|consider|even))*\s+(?:try|trying|"
    r"consider|considering|check\s+out|look\s+into|visit|explore)|\bmy\s+(?:top\s+|main\s+|"
    r"first\s+)?(?:recommendation|suggestion|pick)\s+(?:would\s+be|is)|\b(?:I|we)\s+"
    r"(?:highly\s+|strongly\s+)?(?:recommend|suggest))(?P<colon>\s*:)?\s+(?P<rest>\S)",
    re.IGNORECASE)
REC_LEAD = re.compile(
    r"^(?:that\s+you\s+(?:try\s+|consider\s+|visit\s+|check\s+out\s+)?|you\s+(?:try\s+|"
    r"consider\s+|visit\s+|check\s+out\s+)?|to\s+|trying\s+(?:out\s+)?|checking\s+out\s+|"
    r"visiting\s+|considering\s+|looking\s+into\s+|going\s+to\s+|using\s+|starting\s+with\s+|"
    r"out\s+|exploring\s+|giving\s+|getting\s+|picking\s+up\s+|reading\s+|watching\s+|"
    r"heading\s+to\s+|a\s+visit\s+to\s+)+", re.IGNORECASE)
REC_BOUNDARY = re.compile(r"[,;:!?()\[\]\n—–]|" + _ABBR + r"\.(?=\s|$)|\s-\s|"
                          r"\s+(?:because|since|which|as\s+it|as\s+they|so\s+that|if\s+you|"
                          r"where\s+you|to\s+help)\b",
                          re.IGNORECASE)
REC_VAGUE = re.compile(r"^(?:the\s+following|following|these|this|that|it|them|some|a\s+few|"
                       r"one|you|against|avoiding|not|something|anything|a\s+couple|"
                       r"a\s+few\s+(?:things|options|ideas)|some\s+(?:options|ideas|tips))\b",
                       re.IGNORECASE)
SENTENCE_CONDITIONAL = re.compile(
    r"^\W*(?:(?:and|but|so|well|ok|okay|also)\W+)*(?:if|unless|in\s+case|suppose|supposing|"
    r"imagine|assuming|hypothetically|say)\b", re.IGNORECASE)

# --- shared by the handlers ----------------------------------------------------------------------

WS = re.compile(r"\s+")
WORD = re.compile(r"\S+")
SLUG = re.compile(r"[^a-z0-9]+")
FIRST_PERSON_WORDS = [(re.compile(r"\b(?:my|our)\b", re.I), "their"),
                       (re.compile(r"\b(?:me|us)\b", re.I), "them"),
                       (re.compile(r"\b(?:myself|ourselves)\b", re.I), "themselves"),
                       (re.compile(r"\b(?:I|we)\b", re.I), "they")]
# A proper name of up to six words; a word ending in a full stop goes on only when it is an
# abbreviation or an initial ("St. Paul", "J. Crew"), never across a sentence ("Uber. Lyft").
PROPER = re.compile(
    r"(?i:the\s+)?(?P<p>(?!I\b)(?:[A-Z]|\d+[A-Za-z-])[\w'’.&-]*(?:(?<![a-z]{2}\.)\s+(?:(?:of|de|del|la|da|"
    r"upon|on|the|&)\s+)?(?!I\b)(?:[A-Z]|\d+[A-Za-z-])[\w'’.&-]*){0,5}"
    r"(?:,\s+(?!I\b)[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)?"
    r"(?=\s*(?:$|[,.;!?)]|\s(?:and|but|so|with|for|since|in|last|this|next|because|where|which|"
    r"a|about|to|from|now|after|before|until|when|on|at|too|recently|back|yesterday)\b)))?)")
# A number taken back at once: "two cats, wait no, three" (three is the count).
NUMBER_FIX = re.compile(
    r"[\s,]*(?:wait|no|sorry|oops|actually|I\s+mean|make\s+that|scratch\s+that)\b"
    r"(?:[\s,.]*(?:wait|no|sorry|actually|I\s+mean))*[\s,.]+(?P<num>\d{1,3}|" + _NUMW + r")\b",
    re.IGNORECASE)
DATE_WORD = re.compile(r"(?:" + _WD + r"|" + _MONTHS + r")", re.IGNORECASE)
# A name's run that ends in a date word is a time, not part of the name: "Canva on Monday".
NAME_TIME_TAIL = re.compile(r"\s+(?:on|in|upon)\s+(?:" + _WD + r"|" + _MONTHS + r")\b.*$",
                            re.IGNORECASE)
ORG_LOWER = re.compile(r"(?:a|an|the)\s+(?P<p>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})")
# A name that is a day or a month ("Monday", "Sept."), not "Monzo".
TIME_NAME = re.compile(r"(?:" + _WD + r"|" + _MONTHS + r")\b\.?", re.IGNORECASE)
PROPER_TIME = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|"
                          r"thu|fri|sat|sun)", re.I)
REC_TAIL = re.compile(r"\s+(?:for\s+(?:a|an|the|your|some|dinner|lunch|breakfast|brunch|dessert|"
                      r"you)|to\s+(?:help|get|make|see|keep|"
                       r"improve|reduce|avoid|boost|relax|unwind)|so\s+that|if|since|because|"
                       r"as\s+(?:it|they|this|a\s+way)|which|that\s+(?:is|are|has|offers?))\b.*$",
                       re.I)
LOWER_ORG_TAIL = re.compile(r"\s+(?:in|at|on|near|by|of|downtown)(?=\s|$)")
CLOCK_TIME = re.compile(r"\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)\b", re.IGNORECASE)
PASSED_AWAY = re.compile(r"\s+(?:(?:sadly|recently|just)\s+)?(?:passed\s+away|died|passed\b)",
                         re.IGNORECASE)
AGE = re.compile(r"\bI(?:" + AP + r"m|\s+am|\s+(?:just\s+|recently\s+)?turned)\s+(?:now\s+)?"
                 r"(?P<years>\d{1,2})(?:\s+years?\s+old|\s*y/?o\b|(?=\s*(?:[.!,;]|$|\s+(?:"
                 r"this|last|yesterday|today|on|in)\b)))", re.IGNORECASE)
BIRTHDAY = re.compile(
    r"\bmy\s+birthday\s+(?:is|was|falls)\s+(?:on\s+)?(?P<day>(?:" + _MONTHS + r")\.?\s+"
    r"\d{1,2}(?:st|nd|rd|th)?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+of\s+(?:" + _MONTHS + r"))\b",
    re.IGNORECASE)
COUNT_START = re.compile(r"(?:\d+|" + _NUMW + r"|a\s+dozen|a\s+couple\s+of)\s", re.IGNORECASE)

# A life stage long past: a home then is a former home ("we moved to Lyon when I was 3").
CHILDHOOD = re.compile(
    r"\b(?:when I was (?:\d+|a (?:kid|child|baby|toddler|teenager)|little|young|small)|"
    r"as a (?:kid|child|baby|toddler|teenager)|growing up|in my childhood)\b", re.IGNORECASE)
# An experience, not an occasion: "I've been to Chicago before", "I've visited Rome twice".
EXPERIENCE = re.compile(
    r"\b(?:before|ever|once|twice|\d+ times|a (?:few|couple of) times|several times|"
    r"many times)\b", re.IGNORECASE)
