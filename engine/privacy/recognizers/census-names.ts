/**
 * Given names of the United States Census Bureau's 1990 name files (public domain), as shipped in the PyPI package
 * `names` 0.3.0 (dist.male.first, dist.female.first): the 1000 most frequent male and the 1500 most frequent
 * female given names, 2380 after merging, alphabetical. They add the English given names and nicknames that
 * compromise's lexicon files as common nouns only ("Bill", "Ray", "Holly"); ../lexicon.ts folds them into its
 * first-name set. (The census surnames were tried as last names too and left out: the frequent ones missing from the
 * lexicon are mostly also English words, "Street", "Lake", "Savage", and changed nothing on the tuning split; a short
 * list of them serves one narrower purpose, CENSUS_SURNAMES below.)
 */

export const CENSUS_GIVEN_NAMES = `
aaron abbie abby abdul abe abel abigail abraham ada adam adan addie adela adelaida adelaide adele adelina adeline
adell adolfo adolph adrian adriana adrianne adrienne agatha agnes agustin ahmad ahmed aida aileen aimee aisha al
alaina alan alana alba albert alberta alberto alda alden aldo alec alecia alejandra alejandro alene aletha alex alexa
alexander alexandra alexandria alexis alfonso alfonzo alfred alfreda alfredo ali alice alicia alina aline alisa alisha
alison alissa allan allen allene allie allison allyson alma alonzo alpha alphonse alphonso alta althea alton alva
alvaro alvin alvina alyce alyson alyssa amado amalia amanda amber amelia amie amos amparo amy ana anastasia anderson
andra andre andrea andres andrew andria andy angel angela angelia angelica angelina angeline angelique angelita angelo
angie anibal anissa anita ann anna annabelle annamarie anne annemarie annetta annette annie annmarie anthony
antionette antoine antoinette anton antone antonette antonia antonio antony antwan april araceli archie aretha ariana
ariel arleen arlene arline armand armando arnold arnulfo aron arron art arthur arturo ashlee ashleigh ashley asia
astrid athena aubrey audra audrey august augusta augustine augustus aura aurelia aurelio aurora austin autumn ava
avery avis barb barbara barbra barney barry bart barton basil beatrice beatriz beau becky belen belinda bella belle
belva ben benita benito benjamin bennett bennie benny bernadette bernadine bernard bernardo bernice bernie berniece
berry bert berta bertha bertie beryl bess bessie beth bethany betsy bette bettie bettina betty bettye beulah beverley
beverly bianca bill billie billy birdie blaine blair blake blanca blanche bob bobbi bobbie bobby bonita bonnie booker
boris boyd brad bradford bradley bradly brady brain branden brandi brandie brandon brandy brant breanna brenda brendan
brenna brent brenton bret brett brian briana brianna brianne brice bridget bridgett bridgette brigitte britney
brittany brittney brock brook brooke brooks bruce bruno bryan bryant bryce bryon bud buddy buford burl burt burton
byron caitlin caleb callie calvin cameron camilla camille candace candi candice candida candy cara caren carey cari
caridad carissa carl carla carlene carlo carlos carlotta carlton carly carmel carmela carmelita carmella carmelo
carmen carmine carol carole carolina caroline carolyn carrie carrol carroll carson carter cary caryn casandra casey
cassandra cassie catalina catharine catherine cathie cathleen cathrine cathryn cathy catina catrina cecelia cecil
cecile cecilia cedric celeste celestine celia celina cesar chad chadwick chance chanda chandra chanel chang chantal
chantel charity charla charleen charlene charles charley charlie charline charlotte charmaine chase chasity chastity
chauncey chelsea chelsey cheri cherie cherry cheryl chester chi chiquita chloe chong chris christa christal christen
christi christian christie christin christina christine christoper christopher christy chrystal chuck cindi cindy
clair claire clara clare clarence clarice clarissa clark claude claudette claudia claudine claudio clay clayton
clement clementine cleo cleveland cliff clifford clifton clint clinton clyde cody colby cole coleen coleman colette
colin colleen collette collin concepcion concetta connie conrad constance consuelo cora cordelia corey cori corina
corine corinne cornelia cornelius cornell corrie corrine cortney cory courtney coy craig cristal cristina cristy cruz
crystal curt curtis cynthia cyril cyrus daisy dale dalia dallas dalton damaris damian damien damion damon dan dana
dane danelle danette danial daniel daniela danielle danita danna dannie danny dante daphne dara darcy daren darin
dario darius darla darleen darlene darnell darrel darrell darren darrin darryl darwin daryl dave david davis dawn
dawna dayna dean deana deandre deann deanna deanne debbie debby debi debora deborah debra debrah dee deena deidra
deidre deirdre delbert delfina delia delilah della delma delmar delmer delois delores deloris delphine demetria
demetrius dena denice denis denise dennis denny denver deon derek derick derrick desiree desmond dessie destiny devin
devon dewayne dewey dewitt dexter dian diana diane diann dianna dianne dick diego dillon dina dinah dino dion dionne
dirk dixie dollie dolly dolores dominga domingo dominic dominick dominique don dona donald donn donna donnell donnie
donny donovan dora dorcas doreen dorene doretha dorian doris dorothea dorothy dorris dortha dorthy dottie doug douglas
dovie doyle drew duane dudley dulce duncan dustin dusty dwayne dwight dylan earl earle earlene earline earnest
earnestine easter ebony ed eddie eddy edgar edgardo edith edmond edmund edna eduardo edward edwardo edwin edwina
edythe effie efrain efren eileen elaine elba elbert elda eldon eleanor eleanore elena eli elia elias elida elijah
elinor elisa elisabeth elise eliseo elisha elissa eliza elizabeth elizebeth ella ellen ellie elliot elliott ellis elma
elmer elmo elnora eloisa eloise elouise eloy elsa elsie elton elva elvia elvin elvira elvis elwood elyse emanuel
emerson emery emil emile emilia emilie emilio emily emma emmanuel emmett emory enid enrique eric erica erich erick
ericka erik erika erin erlinda erma erna ernest ernestina ernestine ernesto ernie errol ervin erwin esmeralda
esperanza essie esteban estela estella estelle ester esther ethan ethel etta eugene eugenia eugenio eula eulalia
eunice eva evan evangelina evangeline eve evelyn everett everette evette ezra fabian fabiola faith fannie fanny fatima
faustino fawn fay faye federico felecia felicia felicita felipe felix ferdinand fern fernando fidel filomena fletcher
flor flora florence florine flossie floy floyd forest forrest foster fran frances francesca francine francis francisca
francisco frank frankie franklin fred freda freddie freddy frederic frederick fredric fredrick freeman freida frieda
fritz gabriel gabriela gabriella gabrielle gail gale galen garland garrett garry garth gary gavin gay gaye gayla gayle
gena genaro gene geneva genevieve genoveva geoffrey george georgette georgia georgiana georgianna georgie georgina
gerald geraldine gerard gerardo geri germaine german gerri gerry gertie gertrude gil gilbert gilberto gilda gillian
gina ginger ginny gino giovanni gisela gladys glen glenda glenn glenna gloria goldie gonzalo gordon grace gracie
graciela grady graham grant greg gregg gregoria gregorio gregory greta gretchen griselda grover guadalupe guillermina
guillermo gus gussie gustavo guy gwen gwendolyn hal haley hallie hank hanna hannah hans harlan harley harold harriet
harriett harriette harris harrison harry harvey hattie haydee hayley hazel heath heather hector heidi helen helena
helene helga hellen henrietta henry herbert heriberto herlinda herman herminia herschel hershel hester hilario hilary
hilda hildegard hillary hiram holli hollie hollis holly homer hope horace horacio hortencia houston howard hubert hugh
hugo humberto hung hunter ian ida idella ignacio ila ilene ima imelda imogene ina india ines inez ingrid iola iona
ione ira irene iris irma irvin irving irwin isaac isabel isabell isabella isabelle isaiah isiah isidro ismael israel
issac iva ivan ivette ivonne ivory ivy jack jackie jacklyn jackson jaclyn jacob jacque jacquelin jacqueline jacquelyn
jacques jacquline jade jaime jake jamaal jamal jamar jame jamel james jami jamie jan jana jane janeen janel janell
janelle janet janette janice janie janine janis janna jannette jannie jaqueline jared jarred jarrett jarrod jarvis
jasmin jasmine jason jasper javier jay jayme jayne jayson jean jeana jeanette jeanie jeanine jeanna jeanne jeannette
jeannie jeannine jed jeff jefferey jefferson jeffery jeffrey jeffry jena jenifer jenna jennie jennifer jenny jerald
jeremiah jeremy jeri jermaine jerold jerome jerri jerrod jerrold jerry jesica jess jesse jessica jessie jesus jewel
jewell jill jillian jim jimmie jimmy jo joan joann joanna joanne joaquin jocelyn jodi jodie jody joe joel joelle
joesph joey johanna john johnathan johnathon johnie johnna johnnie johnny jolene jon jonah jonas jonathan jonathon
joni jonnie jordan jorge jose josef josefa josefina joseph josephine josette josh joshua josiah josie josue jovita joy
joyce juan juana juanita judi judith judson judy jules juli julia julian juliana julianna julianne julie juliet
juliette julio julius june jung junior justin justina justine kaitlin kaitlyn kami kara kareem karen kari karin karina
karl karla karol karon karrie karyn kasey kate katelyn katharine katherine katheryn kathi kathie kathleen kathrine
kathryn kathy katie katina katrina katy kay kaye kayla keisha keith kelley kelli kellie kelly kelsey kelvin ken
kendall kendra kendrick kenneth kennith kenny kent kenton kenya keri kermit kerri kerrie kerry kesha keshia keven
kevin kia kieth kim kimberlee kimberley kimberly kip kira kirby kirk kirsten kisha kitty kory kris krista kristal
kristen kristi kristie kristin kristina kristine kristopher kristy krystal krystle kurt kurtis kyla kyle kylie lacey
lacy ladonna lakeisha lakesha lakisha lamar lamont lan lana lance landon lane lanny laquita lara larissa larry lashawn
lashonda latanya latasha latisha latonia latonya latosha latoya latrice latricia laura laureen laurel lauren laurence
lauretta lauri laurie lavern laverne lavonne lawanda lawrence lazaro lea leah leann leanna leanne lee leeann leigh
leila leilani leisa lela leland lelia lemuel lena lenard lenny lenora lenore leo leola leon leona leonard leonardo
leone leonel leonor leonora leopoldo leora leota leroy les lesa lesley leslie lessie lester leta letha leticia letitia
lettie levi lewis lia libby lidia lila lilia lilian liliana lillian lillie lilly lily lina lincoln linda lindsay
lindsey lindy linnie linwood lionel lisa lisette lissette liz liza lizette lizzie lloyd logan lois lola lolita lon
lona lonnie lora loraine loren lorena lorene lorenzo loretta lori lorie lorine lorna lorraine lorri lorrie lottie lou
louann louella louie louis louisa louise lourdes lowell loyd luann luanne lucas lucia luciano lucien lucila lucile
lucille lucinda lucio lucretia lucy luella luis luisa luke lula lulu lupe lura luther luz lydia lyle lyman lyn lynda
lynette lynn lynne lynnette ma mabel mable mac mack madeleine madeline madelyn madge madonna mae magda magdalena
magdalene maggie mai major majorie malcolm malinda malissa mallory mamie mandi mandy manuel manuela mara marc marcel
marcela marcelina marcelino marcella marcelle marcelo marci marcia marcie marco marcos marcus marcy margaret margarita
margarito marge margery margie margo margot margret marguerite mari maria mariah mariam marian mariana mariann
marianna marianne mariano maribel maricela marie marietta marilyn marilynn marina mario marion marisa marisela marisol
marissa maritza marjorie marjory mark marla marlena marlene marlin marlon marlyn marlys marnie marquis marquita marsha
marshall marta martha martin martina marty marva marvin mary maryann maryanne marybeth maryellen maryjane marylou
mason mathew matilda matilde matt matthew mattie maud maude maudie maura maureen maurice mauricio maurine mauro mavis
max maxine maxwell may maya mayme maynard mayra meagan meaghan megan meghan mei mel melanie melba melinda melisa
melissa mellisa mellissa melodie melody melva melvin melvina mercedes meredith merle merlin merrill merry mervin mi
mia micaela micah michael michaela micheal michel michele michell michelle mickey migdalia miguel mike milagros
mildred miles milford millard millicent millie milo milton mimi mina mindy minerva minnie miranda miriam mirna missy
misti misty mitch mitchel mitchell mitzi mohamed mohammad mohammed moises mollie molly mona monica monika monique
monroe monte monty morgan morris morton moses mozelle muriel murray myles myra myrna myron myrtis myrtle nadia nadine
nakia nan nancy nanette nannie naomi napoleon natalia natalie natasha nathalie nathan nathaniel natividad neal ned
nedra neil nelda nell nellie nelly nelson nereida nestor nettie neva newton nicholas nichole nick nicki nickolas
nicolas nicole nigel niki nikita nikki nilda nina nita noah noe noel noelle noemi nola nolan nona nora norbert
norberto noreen norma norman normand norris numbers octavia octavio odell odessa odis ofelia ola olen oleta olga olin
olive oliver olivia ollie oma omar ona opal ophelia ora oralia orlando orval orville oscar osvaldo otis otto owen
pablo paige pam pamala pamela pansy parker pasquale pat patrica patrice patricia patrick patsy patti pattie patty paul
paula paulette paulina pauline pearl pearlie pearline pedro peggy penelope penny percy perla perry pete peter petra
phil philip phillip phillis philomena phoebe phyllis pierre pilar polly porfirio portia precious preston pricilla
prince princess priscilla queen quentin quincy quinn quinton rachael racheal rachel rachelle rae rafael rafaela ralph
ramiro ramon ramona randal randall randell randi randolph randy raphael raquel raul raven ray raymond raymundo reba
rebeca rebecca rebekah reed refugio reggie regina reginald reid reina reinaldo rena renae renata renate rene renee
renita reta retha reuben reva rex reyes reyna reynaldo rhea rhoda rhonda ricardo rich richard richelle richie rick
rickey rickie ricky rico rigoberto riley rita rob robbie robbin robby robert roberta roberto robin robt robyn rocco
rochelle rocio rocky rod roderick rodger rodney rodolfo rodrick rodrigo rogelio roger roland rolando rolland roma
roman romeo romona ron ronald ronda ronnie ronny roosevelt rory rosa rosalba rosalee rosalia rosalie rosalina rosalind
rosalinda rosalyn rosanna rosanne rosario roscoe rose roseann roseanne rosella roselyn rosemarie rosemary rosendo
rosetta rosie rosina rosita roslyn ross rowena roxana roxann roxanna roxanne roxie roy royal royce ruben rubin ruby
rubye rudolph rudy rufus rupert russ russel russell rusty ruth ruthann ruthie ryan sabina sabrina sadie sal sallie
sally salvador salvatore sam samantha samatha sammie sammy samuel sandi sandra sandy sanford sang santa santiago
santos sara sarah sasha saul saundra savannah scarlett scot scott scottie scotty sean sebastian selena selina selma
serena sergio seth seymour shameka shana shanda shane shanna shannon shanon shanta shante shantel shari sharla
sharlene sharon sharonda sharron sharyn shaun shauna shawn shawna shayla sheena sheila shelby sheldon shelia shelley
shelli shellie shelly shelton sheree sheri sherman sherri sherrie sherry sheryl shiela shirlene shirley shonda sidney
sierra silas silvia simon simone socorro sofia soledad solomon son sondra sonia sonja sonny sonya soon sophia sophie
spencer stacey staci stacia stacie stacy stan stanley stefan stefanie stella stephan stephanie stephany stephen
stephenie sterling steve steven stevie stewart stuart sue summer sun sung sunny susan susana susanna susanne susie
suzan suzanna suzanne suzette sybil sydney sylvester sylvia tabatha tabitha tad tamara tameka tamela tamera tami
tamika tammi tammie tammy tamra tana tania tanisha tanner tanya tara taryn tasha tatiana tawana taylor ted teddy tena
tera terence teresa terese teresita teressa teri terra terrance terrell terrence terri terrie terry tessa tessie thad
thaddeus thanh thea theda thelma theodora theodore theresa therese theron thomas thurman tia tiana tiara tiffani
tiffany tillie tim timmy timothy tina tisha toby tod todd tom tomas tomasa tommie tommy toni tonia tonja tony tonya
tori tory tosha tracey traci tracie tracy travis trena trent trenton treva trevor trey tricia trina trinidad trisha
trista tristan troy trudy truman twila twyla ty tyler tyra tyree tyrone tyson ulysses una ursula vada valarie valencia
valentin valentina valeria valerie valorie van vance vanessa vaughn veda velda velma venessa venita venus vera verda
verla vern verna vernell vernice vernon veronica vesta vicente vickey vicki vickie vicky victor victoria vida vikki
vilma vince vincent viola violet violeta virgie virgil virgina virginia vito vivian viviana vonda wade waldo walker
wallace walter wanda ward warren wayne weldon wendell wendi wendy wesley weston whitney wilbert wilbur wilburn wilda
wiley wilford wilfred wilfredo wilhelmina will willa willard william williams willie willis wilma wilmer wilson wilton
windy winfred winifred winnie winnifred winona winston wm woodrow wyatt xavier yadira yesenia yolanda yong young
yvette yvonne zachariah zachary zachery zane zelda zella zelma zenaida zoe zoila
`;

/**
 * The given names of the lexicon (compromise's, lexicon-data's and the census's) that are also lower-case English
 * words of the SCOWL word list (Debian's wamerican 2020.12.07, /usr/share/dict/american-english), less those the
 * lexicon already files as common words: "chance", "grace", "mark", "walker". Written in lower case, they are more
 * often the word; ./named-entities.ts takes a lone lower-case given name as a name only when it is not one of them.
 */
export const GIVEN_NAMES_THAT_ARE_WORDS = `
abbey aline alpha amber amir angel aria aura autumn barb barney basil belle berry beryl biff billy bin birdie blaze
blossom bob bobby bola bonnie brad brain brooks buck buddy buster cal candy carmine carol chad chance chase chastity
cherry chi christen chuck clay clement colleen curt dahlia dale deb derrick destiny dieter dirk don drew dung ebony ed
emerald emery ester evens fang fawn flora florin forest foster freeman gale garland garnet genesis ginger glen grace
grant hank harmony harry heath heather hector homer hyacinth ion iris ivory ivy jack jarred jasper jimmy john josh
julienne ken lacy lance laurel lea lee lei mads margarita maria marina mark marlin marquis marshal martin mason matt
maxim meg mickey mike myrtle nick noel opal pansy pat patty peg peter phoebe pierce ping precious prudence rhea rick
roan rob rocky roger roman rosemary rune saga sally sander savanna savannah serge sherry sierra skip spike stew sue
sun sunny tad tam tanner taro terry tiara ting tom tony tor troy valentine victor wade waldo walker warren wellington
wen willow yaw
`;

/**
 * Surnames among the most frequent of the United States Census Bureau's 2010 surname file (public domain) that
 * compromise's lexicon files as common words or given names only ("Brown", "White", "Young", "King", "Hill"). They
 * count as surnames only right after a known given name or an initial (./named-entities.ts; they are not in the
 * lexicon's last-name set, so a lone "Brown" or "brown" stays a word and the model's re-casing leaves it in lower
 * case): "Contact Olivia Brown at ..." is a name even where the model reads the run otherwise. Places and companies
 * of the same spelling (Washington, Jordan, Ford) are left out. Written by hand from the census ranking's top 250
 * (not generated from the file, which this machine does not hold), less those the lexicon already knows.
 */
export const CENSUS_SURNAMES = `
brown taylor martin white young allen king scott hill green nelson baker hall mitchell stewart cook morgan reed howard
ward wood james gray price long ross foster perry russell bell butler alexander hamilton graham griffin wallace west
cole ellis marshall harrison woods wells tucker burns simpson porter hunter gordon shaw snyder mason hunt hicks palmer
black boyd rose stone fox warren mills rice ferguson weaver payne grant kelley spencer pierce bradley knight elliott
duncan hudson carroll lane riley alvarado ray berry willis carpenter lawrence
`;
