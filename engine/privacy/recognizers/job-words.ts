/** The words that end a job's name: the head words of the job lists, trades by their ending, compounds of a head. */
import { JOB_HEADS } from './lexicon-data';

/** The job lists' head words (lower case). */
export const JOB_HEAD_LIST = JOB_HEADS.split(/\s+/).filter((w) => w.length > 0);

/** Head words of jobs: the lexicon's and the trades Faker's job lists end in. */
export const HEAD_WORDS = new Set([
  ...JOB_HEAD_LIST,
  ...'practitioner processor brewer logger trader dealer adjuster contractor doctor astronomer ranger warden nurse worker operator officer musician barista maker writer artist driver farmer builder carpenter cleaner cook baker butcher tailor welder gardener porter guard keeper handler dispatcher conservator hygienist optician optometrist podiatrist sonographer surveyor valuer estimator auctioneer merchandiser organiser organizer fundraiser medic sergeant janitor nanny babysitter lifeguard waiter waitress bartender salesman saleswoman caretaker tutor hairdresser barber teller realtor athlete footballer roofer painter tiler plasterer apprentice attendant usher doorman bouncer detective constable notary croupier steward stewardess fitter installer labourer laborer machinist miner forester fisherman firefighter diver model actor actress dancer singer composer conductor photographer illustrator animator copywriter proofreader lexicographer archivist archaeologist geologist chemist biologist physicist mathematician statistician technologist therapist psychotherapist counsellor dietitian examiner assessor gaffer'.split(
    ' ',
  ),
]);
/** Endings of the names of trades, enough in apposition ("Oncologist", "Brewing technologist", "Museum conservator"). */
export const TRADE_ENDING = /^\p{L}{3,}(?:ologist|ist|ician|grapher|nomer|ator|ancer|eyor|ier|maker|writer|smith|wright|keeper|monger|eopath|turopath)$/u;

/** Head words long enough to end a compound trade ("schoolteacher", "firefighter" is listed; "headteacher"). */
const COMPOUND_HEAD = new RegExp(`^\\p{L}{3,}(?:${[...HEAD_WORDS].filter((w) => w.length >= 6 && /^[a-z]+$/.test(w)).join('|')})$`, 'u');

/** Whether a word (lower case) ends a job's name: a head word, its plural, a compound of one, or a trade's ending. */
export function headWord(w: string): boolean {
  // "manager/officer", "inspector/assessor", "Warden/ranger": any part of a compound of trades.
  return w.split('/').some((head) => HEAD_WORDS.has(head) || HEAD_WORDS.has(head.replace(/s$/, '')) || TRADE_ENDING.test(head) || (head.length >= 9 && COMPOUND_HEAD.test(head)));
}
