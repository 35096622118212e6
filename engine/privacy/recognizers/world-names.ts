/**
 * Given names and surnames of 106 and 75 countries, from sigpwned/popular-names-by-country-dataset @ `eb62e13`
 * (CC0 1.0; compiled from Wikipedia's lists of most popular given names and most common surnames, July 2023):
 * the Latin-script and romanized forms of its `common-forenames-by-country.csv` and `common-surnames-by-country.csv`,
 * folded (lower case, no diacritics), at least three letters, leaving out those the lexicon already has, the places
 * and organizations it knows, and English words (compromise's common words and the lower-case words of the SCOWL list,
 * Debian's wamerican 2020.12.07: "long", "bell", "butler"). ../lexicon.ts folds them into its name sets.
 */

export const WORLD_GIVEN_NAMES = `
aariz aarya abd abdel-rahman abdelkader abdulla adin aditi adomas adrians aisultan aisyah aiur ajda aksel alberte
aldiyar aleks aleksandre ali-reza alikhan alinur aliya alparslan alteo alysha amalie amara amaris amayra ambar ambra
ambre amelja amir-abbas amir-ali amir-hossein amira anahit anar anastasiya andrias androula anzu aras areg areni
armen armine arpi artiom artyom aruuke aruuzat asel asemahle ashot asilim assia asta asya aviana ayalah ayim ayla
ayoub ayra aysa ayzere azaria azariah aþena bader barbare benas benedita berrdo biel bisera bogdana brahim chia-hao
chien-hung chih-chiang chih-hao chih-ming chih-wei chin-lung chuluun chun-chieh chun-hung cillian dalila damjan danel
daniil danijel danylo darija daris darta davud defne demetre dhruv dimitar djamel dmytro do-yun dunja dusan dzan
eabha edouard eeli eino eithan elchin elene elija elli elmar elnur elshan elyas elza eman embla emelia emiliya emils
eun-woo eylul ezekiel fatemeh-zahra ferndo fiadh finlay freya fuma gagik gaspar gayane geronimo gevorg gilli giorgia
gogo goktug gordana gustavs guðrun ha-joon ha-rin ha-yoon hadicha harraz haru haruma harun haruna hashem hasmik hayk
heikapu helma herkus hinano hinato hiro hjørdis hovhannes hudson hur i-chun iben ilgar imene iminathi imogen inaya
inci inunnguag inutsiaq ioane ioanna isak ivik izz jad jakup jekabs ji-a ji-an ji-ho ji-yoo jiya jogvan jokull jori
josip jouri jovan ju-won julija kabir kairo kaloyan karam karine karlis katla kazi kiaan kiwa koa konstantina kora
ksenija kyriaki lavi leano leen leni lenna leordo lethokuhle lev li-hua lile lilien lilit lio lisakhanya ljiljana
lourenco lubanzi ludovica lukne lur lusine lwandle ma'soumeh maddi madina mael maeva maksym malachi malek maligiaq
malthe malu maneh manua marama mareva mariya markas marya maryja masa matas matija matthildur matvey maui mehar
mei-hui mei-ling mersana michail michalis mihail mikayel miki mikołaj milagrosa milana mingze mirac moea moeata
mohammad-reza mohammad-taha muchen muhamad muyang mykhaylo nada nagi nagisa naim naranbaatar nare narek narine
natalija naura naya nazanin-zahra nelio neza niel nikodem nikol nikoloz nino niviaq norsaq nurislam nutsa ofentse
oihan oleksandra omphile onni panagiota paneeraq paraskevi pari patricija poema pola prasert qillaq radmila ralfs
raya rayana refael rei relja rethabile rian roko ronja rose-merline rosmery ruoxi saar safija safiya saliha sama
samvel samyar seo-ah seo-yun sesili shahem shivansh shu-chen shu-chuan shu-fen shu-hua shu-hui si-woo sienna
siphosethu sofi soley solja solomiya soma somboon somporn soo-ah stanisław taim tamatoa tapuarii tarita tehei teiki
teiva teo teodor teura teva thaniel tiare tigran timofey titaina titaua toivo tomyris trondur tuleen uiloq ulloriaq
uta vaea vaino valdemar valter vamika varvara vasileios vasilije vasilisa vedant venla veronika viktoriya viraj vita
vladyslav vugar vuk vusal wassim wateen wen-hsiung ya-ting yamato yara yasna ye-jun yehuda yeva yihan yimo yinuo yize
yoana younes yu-jun yua yusef yuxi yuze zahir zala zalan zina zion zumra
`;

export const WORLD_SURNAMES = `
abazi abbasov abdrahmanov abdullaev abdullayev abuladze adary ademovic adilovic adrei aferdita aguilera ahamed
ahmadov ahmetov ahmetovic aigner aivaliotis alarcon aliev alievi alvarado amangeldy amarasinghe ang antunes aquino
arakelyan aravena arben ashkenazi attard auer avetisyan avila aydın bairamov bairamovi bajram balaz balodis bardhi
barisic baumgartner bekim ben-david benali beridze berzins bishwakarma bizjak bolat bolkvadze bondar borg bosnjak
brahimi breathnach bustos butkiene butkus camacho cami camilleri carrillo carrizo castaneda castelli cavalcante ch'en
chadad chai chathuranga chazan chea cheam chetry chey chhan chhet chhetri chhim chhoa chhorn chim choa choe choo chua
coi cojocari corpuz cortez cəfərov d'agostino d'amico davtyan delemovic delvina deo dibra diederich dith dizon donoso
dul eam eaw ebner edirisinghe edri edry eglitis egzon ekanayake eom farias farrugia fatime ferreyra fonseka frasheri
frei fujihara gabai gajdos galea gega gegaj gelashvili gerber gevorgyan ghang ghazaryan ghim gim giorgadze gjika
godoy gogoladze goh golan golob golubovic goundar gouw grech grigoryan guliyev gunasekara gunawardana gunawardena
gurung gutu gwak hadad hakobyan halili harutyunyan hazan heilig heng henriquez herath hettiarachchi hirano hocevar
hoti hovhannisyan hribar hudak hun hur huseynov hysi højgaard həsənov ibraev ibragimov ichikawa ieong ilves isaev
iskakov ismailov ismayilov ismayılov iusupov ivanovic ivanovski jafarov janev jankauskas jankauskiene jansons jara
jayasekara jayasinghe jayasuriya jayawardana jayawardena jayaweera jee joeng jukic juu jørgensen kaczmarek kaliev
kalnins kapanadze karapetyan karimov karklins karpin karunaratne kask kastelic kavaliauskas kavaliauskiene kavaliou
kavcic kawano kazlauskas kazlauskiene kazlou kazlouski kelmendi keo khachatryan khat khatun khay khen khiev khlot
khmer khuc khutsishvili kitanovski klavins klemencic koak koh kojima kola kolla kollar koller koloski kono kontos koo
koppel koren korosec koroveshi kos kosir kostov kostovski kotnik koufos kovacik koyama kozłowski krajnc kralj krier
kristo kritikos krlicevic krumins kuen kukk kuqi kusainov kvaratskhelia kılıc laci lakmal lal lao ledesma lehner
leiva lejeune levin liem liepins lomidze lourenco lukac lum luu madusanka magar magi maharaj maharjan maisuradze
malcah mamedov mamedovi manalo manasievski manukyan mao marat margaryan markoski markov markovski marku martino
martirosyan matos matovski mchedlishvili meas melnic mendis mercado mertens meza micallef mikeladze mirkovic mitrovic
miyasaki mizrachi mkrtchyan mladenovski mlakar montes morais muhamet mul mun munasinghe munn muy mytaras møller
məmmədov nanayakkara nand nava nepali neves nham nhek nikolla nikolovski norðdahl novik nozadze nurgaliev o'byrne
o'doherty o'gallagher o'kelly o'moore o'quinn o'ryan oblak ochion ochoa ohana ohayon olivares omarov ong oravec
ospanov otero oyama ozolins ozols padilla pae pai paik papoutsis pariyar parn parra pathirana paulauskas paulauskiene
pavlovski peiris penov pereyra perkovic permeti perovic petek petersons petkov petrauskas petrauskiene petrevski
petrosyan petrovski phi phung phy pino poblete poghosyan pok pokharel pokhrel polak poli popoff popovski potocnik
prishtina quliyev radovic radulovic rai rajapaksha ramadan ranasinghe ranaweera rangel rathnayaka rathnayake
ratnayake rebane reilly rhee rhim riquelme ristevski rivero roh ros rosales rosas rosca rozman ruggiero saar saavedra
sabajo sadykov saez sah sahakyan samaras samarasinghe sampath san sanhueza sanjeewa sargsyan segal segel semil
senanayake seneviratne seng seong shapira shengelia shimada shkodra shkreli shong shrestha shung sieng simic simoes
sinani smagulov sohn sok som sonn sor soria soriano soun spiteri stankeviciene stankevicius steffen stojanov suen
sugahara sugawara suh suleimenov suljic sultanov suy sørensen tabatadze taing takada takaki takata taketa tal tamang
tamm tapia teo teoh tep terzic thach thai thanasi thapa tharu thuong tieu tiong tiu tkachuk tolentino toro toska
toskaj trac trajanoski trajanovski trajcevski trajkovski trieu ts'ai tsay tsiklauri tsoi turk uch ueta ung urbonas
urboniene ursu valdes valdez valente valon vanags vang vardanyan vasiliauskas vasiliauskiene velasco vella venegas
vergara vidmar vitols vong vujic vujovic vuong wagener waqa watabe weerasinghe wickramasinghe wijesinghe
wojciechowski yakovenko yanez yau yeong yim yos youn yıldırım yıldız yılmaz zagar zammit zarins zoeng zukauskas
zukauskiene zukic zuniga zupan zupancic zuu đam đang đao đoan đorđevic đukic đuric əhmədov əliyev
`;
