/**
 * International gazetteers compiled for this project, beside compromise's English lexicon (../lexicon.ts merges them):
 * given names and surnames by language area, world places in English and native spellings, organizations, and
 * nationality / religious / political groups. Spelling is free (diacritics, case): entries are folded on loading, as
 * the words of a text are. Names are whitespace-separated single tokens; places, organizations and groups are
 * comma-separated phrases.
 */

/** Given names, by language area. */
export const GIVEN_NAMES = `
alejandro alejandra alberto alicia alfonso álvaro amparo andrés ángel ángela antonio araceli arturo beatriz benjamín blanca
carlos carmen carolina catalina cecilia césar concepción consuelo cristian cristina daniela diego dolores eduardo elena
emilio enrique esperanza esteban eva fernando francisco gabriel gabriela gloria gonzalo guadalupe guillermo gustavo héctor
ignacio inés irene isabel iván jaime javier jesús jimena joaquín jorge josé josefa juan juana julio lorena lucía luis luisa
manuel manuela marcela marcos margarita maría mariana mario marta mateo mercedes miguel milagros mónica nicolás noelia
octavio pablo paloma patricia paula pedro pilar rafael ramón raúl ricardo roberto rocío rodrigo rosa rosario salvador
santiago sergio silvia sofía soledad teresa valentina valeria verónica vicente ximena yolanda agustín martina camila renata
florencia facundo matías tomás emiliano leonardo fernanda ariadna nerea iker unai aitor ainhoa itziar hugo adrián izan pau
jordi montserrat núria oriol xavier alba aitana lola candela vera abril julieta micaela lautaro joaquina benicio bautista
maximiliano ezequiel gael iñaki asier begoña maite leire eneko xabier íñigo rubén alonso ignacia amaya paz macarena
trinidad rocío fabiola yesenia anahí itzel xóchitl citlali guadalupe jazmín dulce karla yadira wendy brenda maricela
graciela rosalía azucena adela alma aurora celia elvira gema inmaculada lourdes luz marisol nieves reyes susana yaiza
joão antónio paulo luiz marcelo bruno felipe guilherme thiago tiago vinícius matheus caio otávio renato sebastião gonçalo
duarte rui nuno vasco afonso diogo joana francisca adriana juliana márcia aline sandra amanda bruna jéssica letícia luciana
vanessa larissa raquel tatiana carla cristiane débora simone mafalda matilde leonor conceição graça fátima rafaela
heloísa lívia yasmin sabrina thaís priscila daniele fabiana viviane rosângela lúcia luana gisele bianca talita
washington wellington edson cleber anderson wagner jefferson rodolfo arthur davi enzo heitor lorenzo bernardo
giuseppe giovanni mario luigi francesco angelo vincenzo pietro salvatore carlo franco domenico paolo michele giorgio aldo
luciano marco alessandro andrea matteo lorenzo davide riccardo stefano federico simone emanuele gianluca massimo fabio
enrico giulio dario nicola anna giuseppina angela giovanna carmela caterina francesca chiara giulia sara alessia elisa
federica paola laura rita gabriella stefania roberta ilaria beatrice ginevra gianna maurizio claudio alberto filippo
tommaso edoardo gabriele leonardo mattia cristiano raffaele gennaro ciro rocco luca fabrizio daniele piero umberto
ottavio donatella loredana patrizia antonella graziella ornella serena sabrina arianna noemi vittoria camilla greta
jean pierre michel andré philippe rené louis alain jacques bernard marcel roger claude christian henri georges françois
patrick christophe thierry stéphane olivier sébastien julien mathieu guillaume antoine maxime alexandre baptiste théo
clément romain benoît yves gérard didier pascal marie jeanne françoise monique catherine nathalie isabelle sylvie
martine nicole christine sophie céline julie aurélie camille chloé manon léa sandrine valérie véronique brigitte hélène
amélie margaux élodie émilie océane mathilde capucine solène clémence agathe apolline éloïse gaëlle maëlle axelle
anaïs lucie juliette louise adèle zoé inès jade léonie rose noémie pauline charlotte estelle mireille ghislaine
hervé laurent gilles fabrice frédéric jérôme arnaud cédric ludovic loïc yannick gaël killian enzo nathan mathis timothée
hans peter klaus wolfgang jürgen dieter günter horst helmut manfred uwe werner heinz gerhard karl walter rolf bernd frank
thomas michael andreas stefan markus matthias tobias florian sebastian jonas lukas leon felix maximilian niklas finn
paul elias moritz jannik kai lars jens sven torsten dirk holger ralf volker ulrich friedrich wilhelm heinrich otto ernst
hermann günther ursula helga ingrid gisela monika petra sabine claudia susanne birgit karin renate heike anja katrin
kerstin silke stefanie julia lena hannah mia emma leonie johanna greta frieda lina jana katharina franziska annika
wiebke gudrun hildegard ilse liesel margarete jörg björn ole henning malte hauke knut gerd detlef rüdiger siegfried
reinhard axel carsten joachim dietmar hartmut lothar norbert eckhard erika gertrud brunhilde waltraud irmgard elfriede
anneliese ute dagmar bettina doris elke gabriele marion martina nadine tanja yvonne jacqueline mandy
łukasz paweł piotr krzysztof tomasz andrzej marcin michał jakub jan grzegorz adam marek wojciech kamil mateusz rafał
dariusz mariusz zbigniew jerzy tadeusz stanisław jacek maciej przemysław bartosz szymon dawid artur damian patryk
filip wiktor antoni zofia katarzyna małgorzata agnieszka barbara ewa krystyna elżbieta magdalena joanna aleksandra
natalia karolina justyna beata dorota jolanta iwona grażyna halina danuta paulina weronika kinga zuzanna wiktoria
oliwia maja hanna amelia alicja emilia bożena wiesława jadwiga czesław bogdan leszek ryszard sławomir waldemar
zdzisław kazimierz władysław bolesław mirosław radosław jarosław przemek kuba gosia kasia basia aneta sylwia ilona
jiří petr josef pavel martin jaroslav miroslav zdeněk václav karel milan ondřej radek lenka kateřina věra lucie alena
tereza markéta zuzana lubomír vojtěch matěj šárka jitka ivana dagmar blanka zdeňka
lászló istván józsef jános zoltán sándor gábor ferenc attila tamás zsolt balázs andrás györgy erzsébet katalin ilona
zsuzsanna judit ágnes krisztina eszter réka anita csaba levente bence dániel gergely márton ákos dóra zsófia orsolya
dragan miloš nikola marko luka goran zoran dejan bojan nenad vladimir aleksandar milica jelena marija dragana ivana
snežana željka mirjana vesna tamara nevena jovana tijana emir amir adnan edin haris mirza selma amra lejla senad
ion gheorghe vasile constantin mihai andrei alexandru florin cristian bogdan cătălin ionuț ioana andreea mihaela
alina raluca oana roxana ștefan răzvan sorin dan irina simona diana corina anca
pieter johannes hendrik willem cornelis gerrit jeroen bas sander thijs joost ruud bram daan sem jesse stijn niels wouter
koen maarten bart tim kees henk joris floris luuk ruben mees femke sanne lotte anouk iris lisa fleur marloes annemiek
marieke mieke anneke saskia esther liesbeth maaike eline jitske noor tess fenna daphne ilse wim geert arjen rutger
anders johan nils erik per olof björn magnus henrik mikael fredrik oskar axel gustav emil oliver william liam viktor
kristian kjell arne leif rune terje ole knut søren morten rasmus mads jesper mikkel frederik maja ella alice wilma elsa
astrid kristina birgitta margareta annika linnea frida ebba saga sigrid solveig liv ingeborg kari randi hilde nora tuva
ida freja mette camilla signe kirsten hanne pernille trine tove gunnar sigurd håkon eirik tor stig bo åsa britt malin
jukka juha mikko timo matti antti jari pekka markku heikki ville janne tuomas eero aino helena liisa anneli marjatta
tuula päivi riitta satu minna sanna tiina jóhann sigríður guðrún ólafur einar jón
siobhán niamh aoife ciara saoirse caoimhe róisín sinéad orla gráinne clodagh eimear maeve aisling ailbhe seán pádraig
ciarán eoin oisín cian darragh colm declan fionn ruairí conor donal éamon diarmuid tadhg cormac lorcan séamus fergus
angus alasdair hamish iain ewan callum rhys dylan gareth dafydd emyr cerys bethan eleri ffion carys seren nia sioned
siân rhiannon gwen morgan owain iwan
giorgos georgios konstantinos dimitrios nikolaos ioannis panagiotis christos vasilis athanasios evangelos spyros
stavros kostas yannis nikos eleni aikaterini vasiliki georgia dimitra angeliki eirini despina theodora sotiris
dmitri dmitry sergei sergey alexei alexey ivan mikhail nikolai yuri igor oleg boris anatoly artem maxim kirill
denis roman evgeny yevgeny konstantin vasily fyodor grigory ilya stanislav taras bohdan oleksandr oleksiy mykola
volodymyr andriy yaroslav olga natalia irina tatiana svetlana ekaterina yekaterina anastasia marina ludmila lyudmila
galina nadezhda oksana yulia daria ksenia polina sofiya viktoria zhanna larisa vitaly valery gennady arkady leonid
mehmet mustafa ahmet ali hüseyin hasan ibrahim ismail osman yusuf murat ömer ramazan halil süleyman abdullah mahmut
recep salih fatih kadir emre burak serkan hakan volkan cem can barış mert kerem onur tolga uğur tuncay fatma ayşe emine
hatice zeynep elif meryem sultan özlem esra merve büşra derya gül gülsen sevgi yasemin dilek ebru ceren selin ecem irem
deniz ozan berk kaan arda efe yiğit çağla damla gizem tuğba şeyma kübra
mohammed muhammad mohamed mohammad ahmad ahmed omar umar hassan hussein husain khalid khaled abdul abdel abdulrahman
youssef yousef mahmoud tariq tarek karim kareem samir sami walid waleed nabil faisal fahad saad saeed said rashid hamza
bilal zaid ziad anas amr majid nasser salim salem jamal kamal adel adil hisham hani imad jalal marwan mansour munir
nizar osama rami riad yasser yasir zakaria aisha fatima maryam mariam khadija zainab zeinab layla leila nour noor huda
hanan amal amina aminah salma rania randa reem rima samira yasmine dina dalia farah ghada hala hiba iman jamila lina
lubna mona nadia najwa nawal rana rasha rawan safa sahar samar shaima suha wafa zahra zaynab abdulaziz abdallah
reza mehdi hossein amir hamid javad behrouz babak dariush kourosh cyrus farhad farshid kaveh mehran navid omid payam
parviz ramin shahram siamak arash arman bijan hooman kian maziar pouya fatemeh narges shirin parisa nasrin mahsa negar
roya setareh yasaman ladan mina nazanin niloufar azadeh golnaz laleh mitra parvin soraya taraneh
priya rahul amit anil sunil rajesh ramesh suresh mahesh dinesh ganesh mukesh rakesh vijay ajay sanjay vikram vivek
arjun aditya rohan rohit karan nikhil sachin deepak manoj pradeep sandeep arun varun tarun kiran ravi raj raju ashok
gopal krishna srinivas venkat lakshmi narayan harish girish naveen praveen prakash sameer saurabh gaurav ankit ankur
abhishek akash aman anand ashish harsh hemant jatin kunal mohit neeraj nitin pankaj piyush rajiv sahil sanjeev shankar
shiv siddharth sumit tushar uday vikas vinay vinod yash yogesh arvind balaji ananya aishwarya anjali anita anusha aarti
bhavna deepa deepika divya geeta gita isha jaya jyoti kavita kavya kriti lata madhu meena meera megha neha nisha pooja
puja preeti priyanka radha rani rekha ritu sangeeta sapna shalini shilpa shreya shruti simran sneha sonia sunita swati
tanvi usha vandana varsha vidya aarav vihaan ishaan sai arnav ayaan diya aadhya saanvi anika harpreet gurpreet manpreet
jaspreet navjot rajinder balwinder sukhwinder kuldeep parminder imran asif tahir shahid zubair usman naveed kashif
rizwan junaid waqas ayesha sana hina saima rabia farzana nasreen rubina shabnam tahmina rafiq rahim habib arif
tanvir sabbir mahmud rubel shakil nusrat sharmin
wei jing li min hui ying yan hong xin jun jie lei ming hao yu xiaoming xiaoling xiaoyu jian jianguo guang qiang yong tao
bin bo chao feng gang hai hua jia jin kai lan lin ling mei na ning ping qing rui shan tian ting wen xia xiu yi yue yun
zhen zhi zihan yuxuan haoran zimo yichen mingyu xinyi jiahui shuang lihua meiling xiaohong guoqiang zhiwei weiming
jianhua xiaojun yifan yiming zhiyuan haoyu yutong xiaowei chun fang
min-jun minjun seo-yeon seoyeon ji-hoon jihoon ji-woo jiwoo ha-eun haeun do-yoon doyoon seo-jun seojun ye-jin yejin
su-bin subin hyun-woo hyunwoo ji-yeon jiyeon min-ji minji ji-min jimin jun-ho junho tae-yang taeyang yuna hyun jae
dong-hyun sang-woo young-ho eun-ji so-yeon hye-jin seung-min
hiroshi takashi kenji akira takeshi kazuo yoshiko yuki yuko keiko haruto yuto sota yuma riku ren kaito daiki shota
kenta ryota taro ichiro jiro satoshi makoto naoki koji masato tomoko akiko emi aoi sakura rin mio ayumi naomi kaori
megumi rie mayumi noriko sachiko hiromi kumiko michiko kenichi shinji tetsuya yusuke daisuke hideo masashi haruka
misaki nanami yui hina kazuki takumi hayato shun
anh minh thanh hung huong linh ngoc phuong quang thao thu trang tuan an binh cuong duc dung hieu hoa hoai khanh
nhung phong tam trung viet vy yen bao chau dat giang hanh loan nga nhi oanh quynh tien trinh xuan
somchai somsak siriporn nattapong kittisak sukanya wanida budi agus siti dewi sri putri rizky fajar nur wahyu adi eko
joko bambang maricel marites rowena jocelyn rodel jomar
oluwaseun olumide adebayo adewale ayodele babatunde chinedu chukwuemeka emeka ifeanyi ikechukwu nnamdi obinna chidi
chijioke chinonso tunde segun femi kunle yemi bola funmilayo folake ngozi chiamaka chioma adaeze amaka nneka ifeoma
uchenna ebere yewande abimbola temitope titilayo kwame kofi kojo kwabena yaw kwaku akosua ama abena adwoa afia efua esi
yaa kwesi kagiso thabo sipho themba mandla bongani lungile sibusiso nomvula thandiwe nomsa zanele lerato palesa naledi
tumelo kgomotso tshepo amahle ayanda busisiwe wanjiru wambui njeri nyambura wanjiku baraka juma zawadi amani imani
neema rehema tendai tatenda farai chipo rudo tafadzwa tsitsi abebe almaz dawit getachew tigist hiwot meron selam yonas
tesfaye moussa mamadou ousmane aminata fatoumata awa aissatou ibrahima cheikh abdoulaye seydou oumar adama
avi yossi moshe yaakov shlomo eitan noam ori yonatan itai shira noa tamar yael michal ronit orly ayelet hila
leilani kalani keanu malia makana moana tama aroha mere wiremu hemi rangi
`;

/** Surnames, by language area. */
export const SURNAMES = `
garcía rodríguez gonzález fernández lópez martínez sánchez pérez gómez jiménez ruiz hernández díaz moreno álvarez muñoz
romero alonso gutiérrez navarro torres domínguez vázquez ramos gil ramírez serrano blanco suárez molina morales ortega
delgado castro ortiz rubio marín sanz núñez iglesias medina garrido santos castillo cortés lozano guerrero cano prieto
méndez calvo cruz gallego vidal león herrera márquez peña cabrera flores campos vega díez fuentes carrasco caballero
nieto reyes aguilar pascual herrero santana lorenzo hidalgo montero ibáñez giménez ferrer durán vicente benítez mora
arias varela mendoza rojas vargas soto contreras silva sepúlveda espinoza valenzuela araya figueroa salazar guzmán
pacheco velásquez velázquez cárdenas ríos acosta quintero zapata osorio restrepo valencia arango escobar ospina
jaramillo salinas cervantes villanueva trujillo maldonado estrada ayala juárez aguirre ponce rivera sosa peralta
benavides bustamante chávez ramos mejía orozco villalobos navarrete sandoval bravo palacios paredes miranda córdoba
carvajal galindo solís zamora robles lara luna ibarra cordero bermúdez gallardo toledo pizarro quiroga montoya
rincón duque gaviria uribe bolaños echeverría goicoechea etxeberria zubizarreta urrutia
oliveira souza sousa rodrigues ferreira alves pereira lima gomes costa ribeiro martins carvalho almeida lopes soares
fernandes vieira barbosa rocha dias nascimento andrade moreira nunes marques machado mendes freitas cardoso gonçalves
teixeira araújo pinto correia monteiro moura cavalcanti batista fonseca magalhães mesquita coelho azevedo tavares pires
figueiredo brandão borges cunha guimarães loureiro macedo medeiros pimentel queiroz rezende siqueira vasconcelos
rossi russo ferrari esposito bianchi romano colombo ricci marino greco gallo conti mancini giordano rizzo lombardi
moretti barbieri fontana santoro mariani rinaldi caruso ferrara galli martini leone longo gentile martinelli vitale
lombardo serra coppola marchetti parisi villa conte ferraro ferri fabbri bianco marini grasso valentini messina sala
gatti pellegrini palumbo sanna farina rizzi monti cattaneo morelli amato silvestri mazza testa grassi pellegrino carbone
giuliani benedetti barone rossetti caputo montanari guerra palmieri bernardi fiore ferretti bellini basile riva donati
piras vitali battaglia sartori neri costantini milani orlando esposito deluca d'angelo desantis deangelis derosa
mazzoni bassi bruni cirillo colonna fumagalli ghezzi lanza mancuso marchi negri pagano rota sorrentino vespucci
bernard dubois thomas robert richard petit durand leroy moreau simon laurent lefebvre lefèvre michel david bertrand roux
vincent fournier morel girard andré mercier dupont lambert bonnet françois legrand garnier faure rousseau blanc guérin
muller henry roussel nicolas perrin morin mathieu clément gauthier dumont fontaine chevalier robin masson gérard
boyer denis lemaire duval joly gautier roger roche roy noël meyer lucas meunier marchand dufour blanchard barbier brun
dumas brunet schmitt leroux colin renard arnaud rolland caron aubert giraud leclerc bourgeois renaud lemoine picard
gaillard leclercq lacroix fabre dupuis olivier hubert guillot rivière guillaume rey moulin berger lecomte ménard
fleury deschamps carpentier benoît maillard marchal aubry vasseur renault jacquet collet prévost poirier charpentier
royer huet baron dupuy pons laîné carré breton rémy perrot guyot barre marty cousin moreau-lefèvre
müller mueller schmidt schneider fischer weber meyer meier wagner becker schulz hoffmann schäfer schaefer koch bauer
richter klein wolf schröder schroeder neumann schwarz zimmermann braun krüger krueger hofmann hartmann lange werner
schmitz krause lehmann schmid schulze maier köhler koehler herrmann könig koenig mayer huber kaiser fuchs peters lang
scholz möller moeller weiß weiss jung hahn schubert vogel friedrich keller günther berger winkler roth beck lorenz
baumann franke albrecht schuster ludwig böhm boehm winter kraus schumacher krämer kraemer vogt stein jäger jaeger
sommer groß gross seidel heinrich brandt haas schreiber graf schulte dietrich ziegler kuhn kühn pohl engel horn busch
bergmann voigt sauer arnold wolff pfeiffer gruber steiner moser hofer leitner eder wimmer pichler brunner egger lechner
wallner weber-schmidt hübner kunz lindner schwab thiel ullrich vetter wendt zeller ebert frey hess hermann
nowak kowalski kowalska wiśniewski wiśniewska wójcik kowalczyk kamiński kamińska lewandowski lewandowska zieliński
zielińska szymański szymańska woźniak dąbrowski dąbrowska kozłowski kozłowska jankowski jankowska mazur kwiatkowski
kwiatkowska krawczyk piotrowski piotrowska grabowski grabowska nowakowski nowakowska pawłowski pawłowska michalski
michalska nowicki nowicka adamczyk dudek zając wieczorek jabłoński jabłońska król majewski majewska olszewski
olszewska jaworski jaworska wróbel malinowski malinowska pawlak witkowski witkowska walczak stępień górski górska
rutkowski rutkowska michalak sikora ostrowski ostrowska baran duda szewczyk tomaszewski tomaszewska pietrzak
marciniak wróblewski wróblewska zalewski zalewska jakubowski jakubowska jasiński jasińska zawadzki zawadzka sadowski
sadowska bąk chmielewski chmielewska włodarczyk borkowski borkowska czarnecki czarnecka sawicki sawicka sokołowski
sokołowska urbański urbańska kubiak maciejewski maciejewska szczepański szczepańska kucharski kucharska wilk
kalinowski kalinowska lis mazurek wysocki wysocka adamski adamska kaźmierczak wasilewski wasilewska sobczak
czerwiński czerwińska andrzejewski andrzejewska cieślak głowacki głowacka zakrzewski zakrzewska kołodziej sikorski
sikorska krajewski krajewska gajewski gajewska szymczak szulc baranowski baranowska laskowski laskowska brzeziński
brzezińska makowski makowska ziółkowski ziółkowska przybylski przybylska kowalewski kowalewska
novák nováková svoboda svobodová novotný novotná dvořák dvořáková černý černá procházka procházková kučera kučerová
veselý veselá horák horáková němec němcová pokorný pokorná marek marková pospíšil pospíšilová hájek hájková jelínek
jelínková král králová růžička růžičková beneš benešová fiala fialová sedláček sedláčková doležal doležalová zeman
zemanová kolář kolářová navrátil navrátilová čermák čermáková urban urbanová vaněk vaňková blažek blažková kříž
křížová kovač kováč kovačová
nagy kovács tóth szabó horváth varga kiss molnár németh farkas balogh papp takács juhász lakatos mészáros oláh rácz
fekete szilágyi török fehér balázs gál kis szűcs kocsis fodor szalai sipos magyar lukács gulyás bíró király katona
jakab bogdán balog sándor boros fazekas kelemen antal orbán somogyi vincze hegedűs budai deák
horvat kovačević babić marić jurić kovačić knežević vuković marković petrović matić tomić pavlović božić blažević
grgić pavić radić perić jovanović nikolić ilić đorđević djordjevic stojanović popović živković stanković milošević
todorović ristić hodžić hadžić begić delić mehmedović
popa popescu ionescu pop radu dumitru stan stoica gheorghe matei ciobanu rusu munteanu mihai constantin florea dinu
lazăr tudor moldovan barbu șerban nistor georgescu dumitrescu constantinescu stanciu ene
jansen visser smit meijer mulder bos vos hendriks dekker brouwer dijkstra smits kok jacobs vermeulen schouten willems
hoekstra maas verhoeven koster prins blom huisman peeters maes claes goossens wouters jong vries berg dijk bakker
janssen boer groot leeuwen wit graaf meer linden haan heuvel veen broek bruijn bruin heijden beek vliet ven dam wal
andersson johansson karlsson nilsson eriksson larsson olsson persson svensson gustafsson pettersson jonsson jansson
hansson bengtsson lindberg jakobsson magnusson lindström olofsson lindqvist lindgren axelsson bergström lundberg lind
lundgren lundqvist mattsson berglund fredriksson sandberg henriksson forsberg sjöberg wallin engström eklund
danielsson lundin håkansson björk bergman gunnarsson holm wikström samuelsson isaksson fransson bergqvist nyström
holmberg arvidsson löfgren söderberg nyberg blomqvist claesson nordström hansen johansen olsen larsen andersen
pedersen nilsen kristiansen jensen karlsen johnsen pettersen eriksen haugen hagen johannessen andreassen jacobsen dahl
jørgensen halvorsen henriksen lund sørensen jakobsen moen gundersen iversen strand solberg svendsen eide knutsen
martinsen paulsen bakken kristoffersen mathisen amundsen rasmussen lunde solheim berge nygård bakke kristensen
fredriksen lien hauge christensen andresen nielsen knudsen evensen sæther myhre hanssen haugland petersen madsen
thomsen christiansen poulsen mortensen
korhonen virtanen mäkinen nieminen mäkelä hämäläinen laine heikkinen koskinen järvinen lehtonen lehtinen saarinen
salminen heinonen niemi heikkilä kinnunen salonen turunen salo laitinen tuominen rantanen karjalainen jokinen mattila
savolainen lahtinen ahonen
murphy kelly sullivan walsh byrne ryan oconnor o'connor o'brien o'neill o'sullivan o'reilly o'donnell mcdonald
mackenzie macdonald mcgregor mclean mccarthy mcguire mckenna doyle gallagher kennedy lynch quinn brennan flanagan
fitzgerald boyle dunne nolan keane hughes llewellyn pryce vaughan cadwallader
papadopoulos papadopoulou georgiou dimitriou nikolaou ioannou konstantinou christodoulou pappas papas vlachos
oikonomou karagiannis papanikolaou antoniou alexiou
ivanov ivanova smirnov smirnova kuznetsov kuznetsova popov popova vasiliev petrov petrova sokolov mikhailov novikov
fedorov morozov volkov alekseev lebedev semenov egorov pavlov kozlov stepanov nikolaev orlov andreev makarov nikitin
zakharov zaitsev soloviev borisov yakovlev grigoriev romanov vorobiev sergeev kuzmin frolov alexandrov dmitriev
korolev gusev kiselev maksimov polyakov sorokin vinogradov kovalev belov medvedev antonov tarasov zhukov baranov
shevchenko kovalenko bondarenko tkachenko kravchenko boyko kovalchuk oliynyk shevchuk polishchuk melnyk lysenko
marchenko rudenko savchenko petrenko moroz kravets
yılmaz kaya demir şahin çelik yıldız yıldırım öztürk aydın özdemir arslan doğan kılıç aslan çetin kara koç kurt
özkan şimşek polat özcan korkmaz çakır erdoğan yavuz acar şen aktaş güler yalçın güneş bozkurt bulut keskin ünal
turan özer işık kaplan avcı sarı taş aksoy tekin
haddad khoury khouri nassar saleh hassan hussein ibrahim mansour khalil aziz hamdan darwish masri najjar sabbagh shami
halabi abbas hamad jaber qasim rahman sayed sayyed shaikh sheikh siddiqui qureshi chaudhry chaudhary malik khan butt
mirza baig ansari hashmi rizvi naqvi jafri zaidi mahmoud mustafa osman othman bakr khalifa nasser suleiman sulaiman
awad bishara al-farsi alfarsi al-sayed al-masri al-rashid al-amin al-hashimi al-zahrani al-qahtani al-otaibi
al-ghamdi al-harbi al-shamsi al-mansoori al-maktoum el-sayed el-amin
karimi ahmadi hosseini mohammadi rezaei moradi jafari rahimi hashemi mousavi sadeghi ghorbani asadi kazemi ebrahimi
akbari abbasi heidari rostami mahmoudi amini zare bagheri shahbazi tehrani esfahani shirazi tabrizi farahani
sharma verma gupta singh kumar patel shah mehta joshi desai iyer iyengar nair menon pillai reddy rao naidu chowdhury
das dutta banerjee chatterjee mukherjee bose ghosh sen roy bhattacharya sinha mishra pandey tiwari dubey shukla
tripathi srivastava agarwal aggarwal jain bansal goel garg mittal kapoor khanna malhotra chopra bhatia arora sethi
saxena yadav chauhan rathore thakur bhatt trivedi kulkarni deshpande patil jadhav pawar shinde gaikwad naik kamath
shetty hegde krishnan subramanian venkatesh raman ramachandran narayanan srinivasan gopalan varghese kurian mathew
dsouza d'souza gill sandhu sidhu dhillon grewal bajwa brar ahluwalia kohli bhalla sodhi walia rahman hossain islam
uddin akter begum chowdhury sarkar mondal haque
wang zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin gao luo zheng liang xie song tang han feng deng
cao peng zeng xiao tian dong pan yuan cai jiang du ye cheng su lu ding ren shen yao cui zhong tan fan jin shi liao jia
xia fu fang bai zou meng xiong qin qiu hou yin xue duan lei chan cheung chow chu fung kwok lam lau lee leung lo lui mak
ng tam tsang wong yeung yip chiu choi kwan
kim park choi jung jeong kang cho yoon yun jang lim im han oh seo shin kwon hwang ahn jeon hong yoo ko moon son bae
baek heo nam noh ha kwak sung cha joo woo ku min ryu chae won chun bang kong
sato suzuki takahashi tanaka watanabe ito yamamoto nakamura kobayashi kato yoshida yamada sasaki yamaguchi matsumoto
inoue kimura hayashi shimizu yamazaki mori abe ikeda hashimoto yamashita ishikawa nakajima maeda fujita ogawa goto
okada hasegawa murakami kondo ishii saito sakamoto endo aoki fujii nishimura fukuda ota miura fujiwara okamoto matsuda
nakagawa nakano harada ono tamura takeuchi kaneko wada nakayama ishida ueda morita hara shibata sakai kudo yokoyama
miyazaki miyamoto uchida takagi ando taniguchi maruyama imai takeda murata ueno sugiyama masuda otsuka chiba kubo
matsui iwasaki sakurai kinoshita noguchi matsuo nomura kikuchi sano onishi sugimoto arai hamada
nguyen nguyễn tran trần le lê pham phạm hoang hoàng huynh huỳnh phan vu vũ vo võ dang đặng bui bùi do đỗ ho hồ ngo ngô
duong dương ly lý dinh đinh truong trương luong lương quach
okafor okonkwo okeke okoro okonjo eze nwosu nwachukwu obi adeyemi adeleke ogunleye olawale bello abubakar musa
danjuma ogbonna onyeka chukwu uche mensah asante owusu boateng osei appiah agyeman acheampong ansah darko addo amoah
bonsu frimpong gyamfi nkrumah danquah mokoena dlamini nkosi ndlovu khumalo mthembu zulu mahlangu ngcobo shabalala
sithole mabaso molefe mkhize nxumalo tshabalala radebe moyo ncube sibanda dube mpofu banda phiri mwale tembo kariuki
kamau mwangi njoroge otieno odhiambo ochieng onyango omondi kiprono kipchoge keter rotich cheruiyot kimani mutua
haile tesfaye bekele tadesse gebre alemu girma mengistu kebede diallo diop ndiaye sow touré traoré keïta coulibaly
koné sissoko camara cissé ouédraogo sawadogo adeyemi oyelaran eze-okafor hassan-ali
cohen levi levy mizrahi peretz biton dahan avraham friedman katz azoulay malka shapiro goldberg rosenberg weinstein
`;

/** Cities, regions and countries the English lexicon lacks or spells only in English. */
export const PLACES = `
kraków, krakow, wrocław, gdańsk, poznań, łódź, szczecin, bydgoszcz, lublin, białystok, katowice, gdynia, częstochowa,
toruń, rzeszów, kielce, olsztyn, opole, warszawa, düsseldorf, köln, münchen, nürnberg, hannover, frankfurt am main,
stuttgart, dortmund, essen, leipzig, bremen, dresden, duisburg, bochum, wuppertal, bielefeld, bonn, münster, karlsruhe,
mannheim, augsburg, wiesbaden, braunschweig, kiel, chemnitz, aachen, magdeburg, freiburg, lübeck, mainz, erfurt,
rostock, kassel, potsdam, heidelberg, regensburg, würzburg, ulm, göttingen, wien, graz, linz, salzburg, innsbruck,
zürich, genève, geneva, basel, bern, lausanne, luzern, lucerne, lugano, den haag, the hague, utrecht, eindhoven,
groningen, tilburg, breda, nijmegen, haarlem, arnhem, leiden, maastricht, delft, rotterdam, brussel, bruxelles,
brussels, antwerpen, antwerp, gent, ghent, brugge, bruges, leuven, liège, namur, charleroi, luxembourg, göteborg,
gothenburg, malmö, uppsala, västerås, örebro, linköping, oslo, bergen, trondheim, stavanger, tromsø, københavn,
copenhagen, odense, helsinki, espoo, tampere, turku, oulu, reykjavík, praha, prague, brno, ostrava, bratislava,
košice, budapest, debrecen, szeged, bucurești, bucharest, cluj-napoca, timișoara, iași, brașov, sofia, plovdiv, varna,
athens, thessaloniki, patras, heraklion, zagreb, split, rijeka, ljubljana, belgrade, beograd, novi sad, sarajevo,
skopje, podgorica, tirana, pristina, tallinn, riga, vilnius, kaunas, kyiv, kiev, kharkiv, odesa, odessa, lviv, dnipro,
moscow, moskva, saint petersburg, st. petersburg, novosibirsk, yekaterinburg, kazan, nizhny novgorod, vladivostok,
istanbul, i̇stanbul, ankara, izmir, i̇zmir, bursa, antalya, adana, konya, gaziantep, lisboa, lisbon, porto, braga,
coimbra, faro, sevilla, seville, valencia, bilbao, zaragoza, málaga, granada, palma, las palmas, alicante, vigo,
gijón, valladolid, córdoba, murcia, pamplona, san sebastián, donostia, santander, salamanca, toledo, roma, rome,
milano, milan, napoli, naples, torino, turin, firenze, florence, venezia, venice, bologna, genova, genoa, palermo,
bari, verona, padova, padua, trieste, catania, bergamo, brescia, pisa, siena, lyon, marseille, toulouse, nice,
nantes, strasbourg, montpellier, bordeaux, lille, rennes, reims, grenoble, dijon, toulon, le havre, brest, tours,
limoges, amiens, metz, besançon, perpignan, orléans, caen, rouen, nancy, avignon, cannes, montréal, montreal, québec,
quebec city, toronto, vancouver, calgary, edmonton, ottawa, winnipeg, halifax, saskatoon, regina, mississauga,
brampton, laval, gatineau, kitchener, são paulo, sao paulo, rio de janeiro, belo horizonte, porto alegre, curitiba,
recife, fortaleza, brasília, manaus, belém, florianópolis, campinas, goiânia, natal, ciudad de méxico, mexico city,
guadalajara, monterrey, puebla, tijuana, mérida, cancún, querétaro, león, oaxaca, acapulco, bogotá, medellín, cali,
barranquilla, cartagena, bucaramanga, lima, arequipa, cusco, trujillo, quito, guayaquil, cuenca, santiago,
valparaíso, concepción, buenos aires, rosario, mendoza, la plata, mar del plata, montevideo, asunción, la paz,
santa cruz, cochabamba, caracas, maracaibo, havana, la habana, san juan, santo domingo, panama city, san josé,
managua, tegucigalpa, san salvador, guatemala city, tehran, mashhad, isfahan, shiraz, tabriz, karaj, baghdad, basra,
erbil, mosul, damascus, aleppo, beirut, amman, jerusalem, tel aviv, haifa, riyadh, jeddah, mecca, medina, dammam,
dubai, abu dhabi, sharjah, doha, manama, kuwait city, muscat, sanaa, cairo, alexandria, giza, casablanca, rabat,
marrakesh, marrakech, fes, tangier, tunis, algiers, oran, tripoli, khartoum, addis ababa, nairobi, mombasa, kisumu,
kampala, dar es salaam, dodoma, kigali, lagos, abuja, kano, ibadan, port harcourt, enugu, benin city, accra, kumasi,
dakar, abidjan, bamako, ouagadougou, niamey, conakry, freetown, monrovia, lomé, cotonou, yaoundé, douala, kinshasa,
lubumbashi, luanda, lusaka, harare, bulawayo, maputo, lilongwe, blantyre, gaborone, windhoek, johannesburg,
cape town, durban, pretoria, port elizabeth, gqeberha, bloemfontein, soweto, antananarivo, mumbai, delhi, new delhi,
bengaluru, bangalore, hyderabad, ahmedabad, chennai, kolkata, pune, jaipur, surat, lucknow, kanpur, nagpur, indore,
bhopal, patna, vadodara, ludhiana, agra, nashik, kochi, cochin, thiruvananthapuram, coimbatore, madurai,
visakhapatnam, chandigarh, amritsar, goa, mysuru, mysore, karachi, lahore, islamabad, rawalpindi, faisalabad,
peshawar, multan, quetta, dhaka, chittagong, kathmandu, colombo, kandy, kabul, tashkent, almaty, astana, bishkek,
dushanbe, baku, tbilisi, yerevan, beijing, shanghai, guangzhou, shenzhen, chengdu, chongqing, tianjin, wuhan,
hangzhou, nanjing, xi'an, suzhou, qingdao, dalian, shenyang, harbin, kunming, xiamen, hong kong, macau, taipei,
kaohsiung, taichung, tokyo, osaka, kyoto, yokohama, nagoya, sapporo, fukuoka, kobe, kawasaki, hiroshima, sendai, nara,
okinawa, seoul, busan, incheon, daegu, daejeon, gwangju, ulsan, pyongyang, hanoi, ho chi minh city, saigon, da nang,
haiphong, hue, nha trang, bangkok, chiang mai, phuket, pattaya, vientiane, phnom penh, yangon, mandalay,
kuala lumpur, penang, johor bahru, singapore, jakarta, surabaya, bandung, medan, semarang, yogyakarta, denpasar,
bali, makassar, manila, quezon city, cebu, davao, makati, ulaanbaatar, sydney, melbourne, brisbane, perth, adelaide,
canberra, hobart, darwin, gold coast, wollongong, geelong, cairns, townsville, auckland, wellington, christchurch,
dunedin, queenstown, suva, port moresby, honolulu, bavaria, bayern, catalonia, catalunya, andalusia, andalucía,
basque country, galicia, tuscany, toscana, lombardy, lombardia, sicily, sicilia, sardinia, sardegna, provence,
normandy, normandie, brittany, bretagne, alsace, île-de-france, flanders, wallonia, saxony, sachsen, hesse, hessen,
baden-württemberg, north rhine-westphalia, nordrhein-westfalen, lower saxony, niedersachsen, brandenburg, thuringia,
tyrol, tirol, scotland, wales, england, northern ireland, cornwall, yorkshire, lancashire, devon, ontario, quebec,
british columbia, alberta, manitoba, saskatchewan, nova scotia, new brunswick, newfoundland, yukon, nunavut,
new south wales, queensland, tasmania, western australia, south australia, northern territory, minas gerais, bahia,
rio grande do sul, paraná, pernambuco, ceará, jalisco, nuevo león, yucatán, chiapas, baja california, patagonia,
punjab, kerala, tamil nadu, karnataka, maharashtra, gujarat, rajasthan, west bengal, uttar pradesh, bihar,
telangana, andhra pradesh, kashmir, sindh, balochistan, kurdistan, siberia, crimea, silesia, pomerania, moravia,
bohemia, transylvania, dalmatia, anatolia, hokkaido, kyushu, guangdong, sichuan, yunnan, xinjiang, tibet, fujian,
zhejiang, jiangsu, shandong, hunan, hubei, españa, spain, deutschland, germany, italia, italy, polska, poland,
brasil, brazil, méxico, mexico, perú, peru, colombia, argentina, chile, venezuela, ecuador, bolivia, uruguay,
paraguay, cuba, česko, czechia, czech republic, slovakia, slovensko, magyarország, hungary, românia, romania,
bulgaria, greece, ελλάδα, croatia, hrvatska, serbia, srbija, slovenia, bosnia, montenegro, albania, kosovo,
north macedonia, sverige, sweden, norge, norway, danmark, denmark, suomi, finland, ísland, iceland, nederland,
netherlands, holland, belgië, belgique, belgium, österreich, austria, schweiz, suisse, svizzera, switzerland,
france, portugal, ireland, éire, united kingdom, great britain, britain, uk, u.k., usa, u.s.a., united states,
united states of america, america, canada, australia, new zealand, aotearoa, türkiye, turkey, ukraine, україна,
russia, belarus, moldova, georgia, armenia, azerbaijan, kazakhstan, uzbekistan, iran, iraq, syria, lebanon, jordan,
israel, palestine, saudi arabia, united arab emirates, uae, qatar, bahrain, kuwait, oman, yemen, egypt, libya,
tunisia, algeria, morocco, sudan, ethiopia, kenya, uganda, tanzania, rwanda, nigeria, ghana, senegal, mali,
côte d'ivoire, ivory coast, cameroon, congo, angola, zambia, zimbabwe, mozambique, malawi, botswana, namibia,
south africa, madagascar, india, bharat, pakistan, bangladesh, nepal, sri lanka, afghanistan, china, taiwan, japan,
south korea, korea, north korea, vietnam, việt nam, thailand, laos, cambodia, myanmar, malaysia, indonesia,
philippines, mongolia, fiji, papua new guinea
`;

/** Organizations the English lexicon lacks: companies, banks, public bodies and institutes of many countries. */
export const ORGANIZATIONS = `
zalando, novartis, roche, nestlé, nestle, siemens, siemens healthineers, bosch, basf, bayer, sap, volkswagen, bmw,
daimler, mercedes-benz, audi, porsche, adidas, allianz, lufthansa, deutsche bank, commerzbank, deutsche telekom,
deutsche bahn, deutsche post, vodafone, unilever, philips, ing, rabobank, abn amro, heineken, ikea, h&m, volvo,
ericsson, nokia, spotify, klarna, maersk, lego, carlsberg, novo nordisk, equinor, telenor, renault, peugeot, michelin,
l'oréal, danone, airbus, totalenergies, carrefour, axa, bnp paribas, société générale, lvmh, chanel, hermès,
santander, banco santander, bbva, telefónica, inditex, zara, iberdrola, repsol, mapfre, caixabank, fiat, ferrari, eni,
enel, generali, unicredit, intesa sanpaolo, pirelli, prada, gucci, armani, luxottica, barilla, lavazza, petrobras,
vale, itaú, itaú unibanco, bradesco, banco do brasil, embraer, natura, ambev, nubank, mercado libre, pemex, cemex,
bimbo, grupo bimbo, televisa, telcel, américa móvil, falabella, avianca, ecopetrol, bancolombia, ypf, globant, rappi,
tata, tata consultancy services, infosys, wipro, reliance, reliance industries, mahindra, airtel, bharti airtel,
flipkart, paytm, zomato, swiggy, hdfc, hdfc bank, icici, icici bank, state bank of india, alibaba, tencent, baidu,
huawei, xiaomi, lenovo, bytedance, tiktok, haier, byd, sinopec, petrochina, samsung, hyundai, lg, kia, sk hynix,
naver, kakao, coupang, toyota, honda, nissan, sony, panasonic, toshiba, hitachi, canon, nikon, mitsubishi, mitsui,
sumitomo, softbank, rakuten, uniqlo, nintendo, mazda, subaru, yamaha, emirates, etihad, qatar airways, aramco,
saudi aramco, sabic, turkcell, turkish airlines, dangote, mtn, safaricom, jumia, ecobank, flutterwave, naspers,
shoprite, vodacom, telstra, qantas, bhp, atlassian, canva, commonwealth bank, westpac, fonterra, shopify, rbc,
scotiabank, bombardier, air canada, loblaw, lululemon, barclays, hsbc, lloyds, lloyds bank, natwest, tesco,
sainsbury's, asda, bp, gsk, astrazeneca, rolls-royce, bae systems, aviva, prudential, diageo, burberry,
marks & spencer, ocado, deliveroo, monzo, revolut, accenture, deloitte, pwc, kpmg, ernst & young, mckinsey,
boston consulting group, google, alphabet, microsoft, apple, amazon, meta, facebook, netflix, tesla, nvidia, intel,
amd, ibm, oracle, salesforce, adobe, cisco, uber, lyft, airbnb, paypal, stripe, walmart, costco, starbucks,
mcdonald's, coca-cola, pepsico, pfizer, moderna, johnson & johnson, merck, sanofi, kaiser permanente,
unitedhealth, boeing, lockheed martin, exxonmobil, chevron, goldman sachs, jpmorgan, jpmorgan chase,
morgan stanley, citibank, citigroup, wells fargo, bank of america, fedex, ups, dhl, verizon, at&t, comcast, disney,
nike, ford, general motors, dell, zoom, slack, dropbox, twitter, linkedin, instagram, whatsapp, wellcome trust,
karolinska institutet, max planck institute, fraunhofer, cern, unicef, unesco, who, world health organization,
red cross, médecins sans frontières, doctors without borders, oxfam, greenpeace, amnesty international,
european commission, european central bank, world bank, imf, nhs, bbc, reuters, bloomberg, the guardian,
le monde, el país, der spiegel
`;

/** Nationalities and ethnic groups (singular forms; plurals are derived). */
export const NATIONALITIES = `
afghan, albanian, algerian, american, andorran, angolan, argentine, argentinian, armenian, australian, austrian,
azerbaijani, bahamian, bahraini, bangladeshi, barbadian, belarusian, belgian, belizean, beninese, bhutanese,
bolivian, bosnian, botswanan, brazilian, british, bruneian, bulgarian, burkinabe, burmese, burundian, cambodian,
cameroonian, canadian, cape verdean, chadian, chilean, chinese, colombian, congolese, costa rican, croatian, cuban,
cypriot, czech, danish, djiboutian, dominican, dutch, ecuadorian, egyptian, emirati, english, eritrean, estonian,
ethiopian, fijian, filipino, filipina, finnish, french, gabonese, gambian, georgian, german, ghanaian, greek,
grenadian, guatemalan, guinean, guyanese, haitian, honduran, hungarian, icelandic, indian, indonesian, iranian,
iraqi, irish, israeli, italian, ivorian, jamaican, japanese, jordanian, kazakh, kenyan, korean, kosovar, kuwaiti,
kyrgyz, lao, laotian, latvian, lebanese, liberian, libyan, lithuanian, luxembourgish, macedonian, malagasy,
malawian, malaysian, maldivian, malian, maltese, mauritanian, mauritian, mexican, moldovan, monegasque, mongolian,
montenegrin, moroccan, mozambican, namibian, nepalese, nepali, new zealander, nicaraguan, nigerian, nigerien,
norwegian, omani, pakistani, palestinian, panamanian, paraguayan, peruvian, polish, portuguese, qatari, romanian,
russian, rwandan, salvadoran, samoan, saudi, scottish, senegalese, serbian, sierra leonean, singaporean, slovak,
slovenian, somali, south african, spanish, sri lankan, sudanese, surinamese, swazi, swedish, swiss, syrian,
taiwanese, puerto rican, salvadorian, north korean, south korean, saudi arabian, tajik, tanzanian, thai, togolese, tongan, trinidadian, tunisian, turkish, turkmen, ugandan, ukrainian,
uruguayan, uzbek, venezuelan, vietnamese, welsh, yemeni, zambian, zimbabwean, kiwi, aussie, brit, quebecer,
quebecois, catalan, basque, galician, flemish, walloon, bavarian, sicilian, corsican, breton, cornish, kurdish, kurd,
berber, amazigh, tamil, punjabi, bengali, gujarati, sindhi, pashtun, baloch, hazara, uyghur, tibetan, han, hmong,
maori, māori, aboriginal, torres strait islander, inuit, métis, first nations, native american, african american,
asian american, latino, latina, latinx, hispanic, caucasian, roma, romani, sami, sámi, yoruba, igbo, hausa, fulani,
zulu, xhosa, maasai, kikuyu, luo, amhara, oromo, tigrayan, somali, arab, persian, jewish
`;

/** Religions and their followers (singular forms; plurals are derived). */
export const RELIGIONS = `
christian, muslim, moslem, jewish, jew, hindu, buddhist, sikh, jain, catholic, roman catholic, protestant, orthodox,
greek orthodox, russian orthodox, anglican, episcopalian, baptist, methodist, lutheran, presbyterian, pentecostal,
evangelical, mormon, latter-day saint, jehovah's witness, quaker, amish, mennonite, adventist, seventh-day adventist,
sunni, shia, shiite, shi'ite, sufi, ahmadi, ismaili, alawite, druze, zoroastrian, parsi, baháʼí, bahai, taoist,
confucian, shinto, rastafarian, pagan, wiccan, agnostic, atheist, coptic, copt, maronite, calvinist, unitarian,
scientologist, hasidic, haredi
`;

/** Political groups and affiliations (capitalized in the text: "conservative" in lower case is an adjective). */
export const POLITICAL = `
democrat, republican, libertarian, socialist, communist, conservative, tory, liberal, liberal democrat, labour,
labour party, labor party, green party, greens, social democrat, christian democrat, democratic party,
republican party, conservative party, tories, whig, marxist, maoist, trotskyist, anarchist, fascist, nationalist,
populist, snp, sinn féin, ukip, reform uk, cdu, csu, spd, afd, fdp, die linke,
podemos, psoe, partido popular, morena, likud, bjp, congress party, peronist, gaullist,
tea party, maga, brexiteer, remainer, whigs
`;

/** Words of a job title's head ("Senior Software Engineer", "Head of Marketing"). */
export const JOB_HEADS = `
officer director manager engineer developer analyst consultant specialist coordinator administrator architect
designer scientist accountant auditor advisor adviser attorney lawyer counsel solicitor barrister paralegal nurse
physician surgeon pharmacist therapist technician assistant associate executive president chairman chairwoman
chairperson partner founder co-founder cofounder owner supervisor superintendent representative agent clerk secretary
treasurer editor writer journalist reporter producer teacher lecturer professor researcher librarian intern trainee
recruiter strategist planner controller buyer inspector instructor trainer coach paramedic dentist veterinarian
electrician plumber mechanic pilot chef receptionist cashier salesperson programmer economist psychologist
psychiatrist radiologist midwife caregiver counselor counsellor registrar dean principal headteacher headmaster
headmistress foreman surveyor underwriter actuary broker banker lead steward curator translator interpreter
`;
